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

// TestScoreLog: pr -v's unconfirmed candidates at a buggy line, and its
// count line, are read from its log.
func TestScoreLog(t *testing.T) {
	b, err := parseBugs(strings.NewReader(row))
	if err != nil {
		t.Fatal(err)
	}
	log := "interleave pr: confirmation: 2 static findings targeted by the search, 0 confirmed by a schedule, 2 findings unconfirmed (job summary only)\n" +
		"interleave pr:   unconfirmed IL3001 at pkg/a.go:12: plain read of x races with its atomic accesses (atomic.AddUint32 at a.go:380)\n" +
		"interleave pr:   unconfirmed IL1001 at /m/pkg/c.go:12: field read\n"
	un, counts := scoreLog(b[0], "/m", log)
	if !reflect.DeepEqual(un, []string{"IL3001"}) || !strings.HasPrefix(counts, "2 static findings targeted") {
		t.Fatalf("scoreLog = %v, %q", un, counts)
	}
}

// TestScorePosted: a confirmed finding at a buggy line is posted by its
// test (a generated one says so); a finding elsewhere is not counted.
func TestScorePosted(t *testing.T) {
	b, err := parseBugs(strings.NewReader(row))
	if err != nil {
		t.Fatal(err)
	}
	fs := []prFinding{
		{finding: finding{Rule: "IL1009", Pos: pos{File: "/m/pkg/a.go", Line: 10}}, Evidence: "confirmed", Test: "TestInterleaveGen_Pool_3"},
		{finding: finding{Rule: "IL1001", Pos: pos{File: "pkg/c.go", Line: 1}}, Evidence: "confirmed", Test: "TestX"},
	}
	posted, byGen := scorePosted(b[0], "/m", fs)
	if !reflect.DeepEqual(posted, []string{"IL1009 confirmed by TestInterleaveGen_Pool_3"}) || !byGen {
		t.Fatalf("scorePosted = %v, %v", posted, byGen)
	}
}
