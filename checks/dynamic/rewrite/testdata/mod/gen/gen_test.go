package gen

import "testing"

func TestGen(t *testing.T) {
	ch := make(chan int, 1)
	Send(ch, 3)
	if <-ch != 3 {
		t.Fatal("bad")
	}
}
