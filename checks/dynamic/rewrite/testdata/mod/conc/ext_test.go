package conc_test

import (
	"testing"

	"example.com/mod/conc"
)

func TestExternal(t *testing.T) {
	ch := make(conc.IntChan, 1)
	ch <- 1
	if <-ch != 1 {
		t.Fatal("x")
	}
	if conc.Pipeline(2) != 6 {
		t.Fatal("pipeline")
	}
}
