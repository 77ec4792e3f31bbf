package checks

import (
	"slices"
	"testing"
)

// TestPositionLess: file, then line, then column; the end of a span does
// not count.
func TestPositionLess(t *testing.T) {
	ps := []Position{
		{File: "a.go", Line: 1, Column: 1},
		{File: "a.go", Line: 1, Column: 2},
		{File: "a.go", Line: 2},
		{File: "b.go", Line: 1},
	}
	for i, p := range ps {
		for j, q := range ps {
			if got := p.Less(q); got != (i < j) {
				t.Errorf("%v.Less(%v) = %v, want %v", p, q, got, i < j)
			}
		}
	}
	if a, b := (Position{File: "a.go", Line: 3, EndLine: 9}), (Position{File: "a.go", Line: 3, EndLine: 4}); a.Less(b) || b.Less(a) {
		t.Errorf("positions that differ only in their end are ordered")
	}
}

// TestSort: by position, then rule, stable otherwise.
func TestSort(t *testing.T) {
	fs := []Finding{
		{Rule: "IL2", Message: "b", Pos: Position{File: "b.go", Line: 1}},
		{Rule: "IL2", Message: "x", Pos: Position{File: "a.go", Line: 2}},
		{Rule: "IL1", Message: "y", Pos: Position{File: "a.go", Line: 2}},
		{Rule: "IL1", Message: "z", Pos: Position{File: "a.go", Line: 2, EndLine: 5}},
		{Rule: "IL3", Message: "a", Pos: Position{File: "a.go", Line: 1, Column: 4}},
	}
	Sort(fs)
	var got []string
	for _, f := range fs {
		got = append(got, f.Message)
	}
	if want := []string{"a", "y", "z", "x", "b"}; !slices.Equal(got, want) {
		t.Errorf("sorted %q, want %q", got, want)
	}
}
