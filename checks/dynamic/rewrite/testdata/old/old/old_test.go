package old

import "testing"

func TestSum(t *testing.T) {
	ch := make(chan int, 3)
	Fill(ch, 3)
	if Sum(ch) != 3 {
		t.Fatal("sum")
	}
}
