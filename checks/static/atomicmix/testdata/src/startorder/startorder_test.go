package startorder

import "testing"

// A test opens the store on a value it owns: not counted.
func TestOpenStore(t *testing.T) {
	var i any = &Index{}
	s := i.(*Index)
	if err := s.openStore(); err != nil {
		t.Fatal(err)
	}
}
