package gen

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestToolSuspectBeside (issues 21 and 23): Probe's generated test fails
// on every schedule under interleave and passes under plain go test, a
// note naming the tool; Score's fails on some schedules only, a lost
// update: a finding, which replays. Before, every generated failure's
// first line was "not linearizable: the concurrent calls gave" and
// explore filed a failure of another test with that first line as the
// tool's doing: Score's finding was a note "as TestInterleaveGen_Probe_0
// does on its unperturbed schedule".
func TestToolSuspectBeside(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	dir := t.TempDir()
	if err := copyTree("testdata/toolsuspect", dir); err != nil {
		t.Fatal(err)
	}
	types := []string{"Probe", "Score"}
	// Bounded by a count; the budget only stops a machine that cannot do
	// it. Score's search ends at its first finding.
	res, err := runCorpus(context.Background(), dir, types, 1, 1, 10, 10*time.Minute, untilFound("Score"))
	if err != nil {
		t.Fatal(err)
	}
	logStats(t, res, types)
	toolNote := false
	for _, n := range res.Notes {
		t.Log("note:", n)
		if strings.HasPrefix(n, "TestInterleaveGen_Score_") {
			t.Errorf("Score's failure noted, not reported: %s", n)
		}
		toolNote = toolNote || strings.HasPrefix(n, "TestInterleaveGen_Probe_0: not reported, most likely the tool's doing: the unperturbed schedule under interleave fails (test failed: interleave_gen_test.go:") &&
			strings.Contains(n, "not linearizable: Probe: Ping()") && strings.Contains(n, "the concurrent calls gave) but ")
	}
	if !toolNote {
		t.Errorf("no note names the tool for Probe's generated test (%v)", res.Notes)
	}
	var c corpusFindings
	c.add(res)
	for _, f := range c.found["Probe"] {
		t.Errorf("Probe fails only under interleave, but gen reports %s: %s", f.Kind, f.Message)
	}
	found := c.found["Score"]
	if len(found) == 0 {
		t.Fatal("Score's lost update was not reported")
	}
	// Its first line names the type and the calls: "not linearizable:
	// Score: Inc(); Inc() ∥ Inc(): the concurrent calls gave".
	if first, _, _ := strings.Cut(found[0].Message, "\n"); !strings.Contains(first, "not linearizable: Score: Inc()") || !strings.Contains(first, " ∥ Inc()") {
		t.Errorf("Score: %s, want its first line to name the type and the calls", first)
	}
	for b, err := range c.replay(context.Background(), dir, []string{"Score"}, nil) {
		if err != nil {
			t.Errorf("%s: %v", b, err)
		}
	}
}

// TestCaseWhat: a generated test's failure names its type and its calls
// in the first line (what explore compares with a failure the tool
// caused in another test), each goroutine's calls apart, then the
// observers; the rendered genRun says it.
func TestCaseWhat(t *testing.T) {
	pkg, ts := corpusTargets(t)
	hits := ts["Hits"]
	c := &Case{Target: hits, Threads: [][]Call{{{Label: "Inc()"}, {Label: "Count()"}}, {{Label: "Inc()"}}}, Observers: []Call{{Label: "Count()"}}}
	if got, want := caseWhat(c), "Hits: Inc(); Count() ∥ Inc(), then Count()"; got != want {
		t.Errorf("caseWhat = %q, want %q", got, want)
	}
	c.Derived, c.Observers = "Snapshot", nil
	if got, want := caseWhat(c), "Hits.Snapshot(): Inc(); Count() ∥ Inc()"; got != want {
		t.Errorf("derived: caseWhat = %q, want %q", got, want)
	}
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	cs := g.Generate(hits, 3)
	src, err := Render(g, pkg.Name, cs, Concurrent)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if !strings.Contains(string(src), strconv.Quote(caseWhat(c))+",") {
			t.Errorf("%s: %q not in the rendered file", c.Name, caseWhat(c))
		}
	}
	if !strings.Contains(string(src), `t.Fatalf("not linearizable: %s: the concurrent calls gave%s`) || !strings.Contains(string(src), "c.what,") {
		t.Errorf("genRun's failure does not name the case:\n%s", src)
	}
}
