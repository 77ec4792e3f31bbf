package prjob

import (
	"io"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
)

// Static findings of one rule that one dynamic cause confirms are one
// finding listing the others; a static finding two causes confirm stays one
// and lists the second.
func TestPRConfirmOneCause(t *testing.T) {
	pos := func(line int) checks.Position { return checks.Position{File: "/repo/cache.go", Line: line} }
	write := func(line int) checks.Finding {
		return checks.Finding{Rule: "IL2001", Severity: checks.Error, Message: "write under rlock", Evidence: checks.Static, Pos: pos(line)}
	}
	race := checks.Finding{Rule: checks.DynamicRuleID(checks.DataRace), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.DataRace,
		Test: "TestReaders", Pos: pos(26), Related: []checks.Related{{Position: pos(40)}}, Schedule: "/repo/s/race.json",
		SameCause: []checks.Occurrence{
			{Test: "TestReaders", Message: "race at 28", Pos: pos(28), Related: []checks.Related{{Position: pos(45)}}, Schedule: "/repo/s/r28.json"},
			{Test: "TestHits", Message: "race at 30", Pos: pos(30), Schedule: "/repo/s/r30.json"},
		}}
	other := checks.Finding{Rule: checks.DynamicRuleID(checks.DataRace), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.DataRace,
		Test: "TestOther", Pos: pos(60), Related: []checks.Related{{Position: pos(30)}}, Schedule: "/repo/s/other.json"}
	st := &confirmStats{searched: true}
	got := confirmAll([]checks.Finding{write(30), write(26), write(28)}, nil, []checks.Finding{race, other}, "/repo", st)
	if len(got) != 1 {
		for _, f := range got {
			t.Logf("%s %s at %v (%d more)", f.Rule, f.Evidence, f.Pos, len(f.SameCause))
		}
		t.Fatalf("got %d findings, want one: three writes one race confirms, and the race", len(got))
	}
	f := got[0]
	if f.Evidence != checks.Confirmed || f.Pos.Line != 26 || f.Schedule != race.Schedule {
		t.Errorf("got %s at %v with schedule %s, want confirmed at line 26 with the race's schedule", f.Evidence, f.Pos, f.Schedule)
	}
	lines := map[int]bool{}
	tests := map[string]bool{}
	for _, o := range f.SameCause {
		lines[o.Pos.Line] = true
		tests[o.Test] = true
	}
	for _, l := range []int{28, 30, 60} {
		if !lines[l] {
			t.Errorf("the finding does not list line %d: %+v", l, f.SameCause)
		}
	}
	if !tests["TestHits"] || !tests["TestOther"] {
		t.Errorf("the finding does not list the tests of its cause: %+v", f.SameCause)
	}
	if st.confirmed != 3 {
		t.Errorf("%d confirmed, want 3", st.confirmed)
	}
}

// Shards that each found a failure of one cause merge into one finding
// listing both tests.
func TestMergeShardsOneCause(t *testing.T) {
	get := "example.com/c.(*Cache).Get"
	race := func(test string, line int, other string, otherLine int) checks.Finding {
		at := func(l int) checks.Position { return checks.Position{File: "c/cache.go", Line: l} }
		return checks.Finding{Rule: checks.DynamicRuleID(checks.DataRace), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.DataRace,
			Package: "example.com/c", Test: test, Func: get, Snippet: "line " + strconv.Itoa(line), Pos: at(line),
			Message:  test + ": data race at " + strconv.Itoa(line),
			Related:  []checks.Related{{Position: at(otherLine)}},
			Schedule: ".interleave/schedules/" + test + ".json",
			Goroutines: []checks.Goroutine{
				{ID: "a", State: "write", Site: "c/cache.go:" + strconv.Itoa(line), Stack: []checks.Frame{{Func: get, File: "c/cache.go", Line: line}}},
				{ID: "b", State: "previous read", Site: "c/cache.go:" + strconv.Itoa(otherLine), Stack: []checks.Frame{{Func: other, File: "c/cache.go", Line: otherLine}}},
			}}
	}
	dir := t.TempDir()
	write := func(name string, fs ...checks.Finding) string {
		p := filepath.Join(dir, name)
		if err := report.WriteFile(p, func(w io.Writer) error {
			return report.JSON{}.Write(w, &report.Report{Findings: fs, ToolVersion: "test", Notes: []string{"note of " + name}})
		}); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s1 := write("s1.json", race("TestReaders", 26, "example.com/c.(*Cache).Stats", 45))
	s2 := write("s2.json", race("TestHits", 28, "example.com/c.(*Cache).Hits", 40))
	rep, n, err := MergeShards([]string{s1, s2}, "", "test")
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || len(rep.Findings) != 1 {
		t.Fatalf("merged %d findings into %d, want 2 into 1", n, len(rep.Findings))
	}
	if got := rep.Findings[0].Tests(); len(got) != 2 {
		t.Errorf("the merged finding lists tests %q, want both", got)
	}
	// The shards' notes (issue 21: in JSON and SARIF) are kept.
	if len(rep.Notes) != 2 || rep.Notes[0] != "note of s1.json" || rep.Notes[1] != "note of s2.json" {
		t.Errorf("merged notes = %q, want both shards'", rep.Notes)
	}
}
