package mocked

import "testing"

func TestLookup(t *testing.T) {
	s := NewMockStore(t)
	if Lookup(s, "k") != "" {
		t.Fatal("want empty")
	}
}
