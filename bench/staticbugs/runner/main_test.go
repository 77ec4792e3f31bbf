package main

import (
	"reflect"
	"strings"
	"testing"
)

const row = "b1\texample.com/m\tv1.2.3\thttps://example.com/pr/1\t0123456789abcdef0123456789abcdef01234567\tpkg/a.go:10,12;pkg/b.go:3\tx.mu.Lock()\tunguarded-field\tA sentence."

func TestParseBugs(t *testing.T) {
	bugs, err := parseBugs(strings.NewReader("# comment\n\n" + row + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []loc{{"pkg/a.go", []int{10, 12}}, {"pkg/b.go", []int{3}}}
	if len(bugs) != 1 || !reflect.DeepEqual(bugs[0].Locs, want) || bugs[0].Kind != "unguarded-field" {
		t.Fatalf("got %+v", bugs)
	}
}

func TestParseBugsRejects(t *testing.T) {
	for name, in := range map[string]string{
		"fields":    "b1\texample.com/m\tv1.2.3\n",
		"duplicate": row + "\n" + row + "\n",
		"kind":      strings.Replace(row, "unguarded-field", "race", 1),
		"version":   strings.Replace(row, "v1.2.3", "latest", 1),
		"commit":    strings.Replace(row, "0123456789abcdef0123456789abcdef01234567", "abc", 1),
		"location":  strings.Replace(row, "pkg/a.go:10,12", "pkg/a.go", 1),
		"line":      strings.Replace(row, "10,12", "10,x", 1),
		"escape":    strings.Replace(row, "pkg/a.go", "../a.go", 1),
		"empty":     "# only a comment\n",
	} {
		if _, err := parseBugs(strings.NewReader(in)); err == nil {
			t.Errorf("%s: accepted %q", name, in)
		}
	}
}

func TestFound(t *testing.T) {
	b, err := parseBugs(strings.NewReader(row))
	if err != nil {
		t.Fatal(err)
	}
	fs := []finding{
		{Rule: "IL1001", Pos: pos{File: "pkg/a.go", Line: 11}},                                             // between the buggy lines
		{Rule: "IL2001", Pos: pos{File: "pkg/c.go", Line: 10}},                                             // another file
		{Rule: "IL3001", Pos: pos{File: "pkg/a.go", Line: 9, EndLine: 10}},                                 // span covers line 10
		{Rule: "IL4003", Pos: pos{File: "pkg/x.go", Line: 1}, Related: []pos{{File: "pkg/b.go", Line: 3}}}, // names the bug
		{Rule: "IL1007", Pos: pos{File: "pkg/b.go", Line: 4}},
	}
	if got, want := found(b[0], fs), []string{"IL3001", "IL4003"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("found = %v, want %v", got, want)
	}
	if got := found(b[0], fs[:2]); len(got) != 0 {
		t.Fatalf("found = %v, want none", got)
	}
}
