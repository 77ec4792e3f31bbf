package mapsold

import "testing"

func TestOld(t *testing.T) {
	fs := Closures(map[int]bool{1: true, 2: true, 3: true})
	for _, f := range fs {
		if f() != fs[0]() {
			t.Errorf("closures saw different keys: per-iteration variables in a go1.16 file")
		}
	}
	if Sum(map[string]int{"a": 1, "bb": 2}) != 6 {
		t.Error("Sum")
	}
}
