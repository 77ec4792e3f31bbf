package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// TestRerunOnePerProcess: a test that cannot run twice in one process
// (testdata/rerunonce: its second Register panics, as a second
// http.HandleFunc of one pattern does) failed on every schedule after the
// first of each process, before reaching the code it tests: EventBus's
// TestNewClient ran 15,112 schedules, 15,109 failing so. Once a process's
// first schedule passed and the next ones all failed one way, the test is
// searched one schedule per process: its counter's lost update is then
// found on more than one schedule and replays. Fails without the switch
// (the lost update can fail only a process's first schedule: at most
// once in 40 with one worker).
func TestRerunOnePerProcess(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, "../testdata/rerunonce", []string{"./q"}, 40)
	var lost *checks.Finding
	for i, f := range res.Findings {
		if f.Kind == checks.TestFailure && strings.Contains(f.Message, "count 1, want 2") {
			lost = &res.Findings[i]
		}
	}
	if lost == nil {
		t.Fatalf("no finding of the lost update; findings %+v", res.Findings)
	}
	if lost.Frequency == nil || lost.Frequency.Failing < 2 {
		t.Errorf("the lost update failed %+v schedules; want at least 2 (one schedule per process)", lost.Frequency)
	}
	var ts *TestStats
	for i := range res.Stats.Tests {
		if res.Stats.Tests[i].Test == "TestCount" {
			ts = &res.Stats.Tests[i]
		}
	}
	if ts == nil || !ts.OnePerProcess {
		t.Errorf("TestCount's stats %+v; want searched one schedule per process", ts)
	}
	noted := false
	for _, n := range res.Notes {
		noted = noted || strings.HasPrefix(n, "TestCount: searched one schedule per process from then on")
	}
	if !noted {
		t.Errorf("notes %q; want the one-per-process note", res.Notes)
	}
	c.Kinds = map[string]checks.FailureKind{}
	checkFindings(context.Background(), t, &Result{Findings: []checks.Finding{*lost}}, c)
}
