package ok

import "testing"

func TestAdd(t *testing.T) {
	var c Counter
	c.Add()
	if c.n != 1 {
		t.Fatal(c.n)
	}
}
