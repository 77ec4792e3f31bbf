package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
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

// TestRerunRefuted: a failure that a process's schedules after its first
// all had is not taken for a rerun's when a schedule run first in a fresh
// process fails the same way (recall's taskqclosedrop, a deadlock on most
// schedules whose process's first happened to pass; cron's
// TestAddWhileRunningWithDelay after three fresh passes): the test goes
// back to several schedules per process, is not switched again, and no
// note says it cannot run twice. A switch that holds to the end of the
// search with rerunEvidence fresh runs is told once.
func TestRerunRefuted(t *testing.T) {
	t.Parallel()
	deadlock := rt.Result{Outcome: "deadlock", Site: "q_test.go:17", Message: "deadlock: all goroutines are blocked: g0 blocked on chan receive at q_test.go:17"}
	pass := rt.Result{Outcome: "pass"}
	s := &search{}
	late := &target{name: "TestAddWhileRunningWithDelay", stats: &TestStats{}}
	s.onePerProcess(late, deadlock)
	if !late.onePerProcess {
		t.Fatal("not switched to one schedule per process")
	}
	for range rerunEvidence {
		s.rerunFirst(late, pass)
	}
	s.rerunFirst(late, deadlock)
	if late.onePerProcess || !late.rerunRefuted {
		t.Fatalf("after a fresh schedule failed the same way: one per process %v, refuted %v; want refuted", late.onePerProcess, late.rerunRefuted)
	}
	s.onePerProcess(late, deadlock)
	if late.onePerProcess {
		t.Error("switched again after a refutation")
	}
	few := &target{name: "TestFew", stats: &TestStats{}}
	s.onePerProcess(few, deadlock)
	s.rerunFirst(few, pass)

	held := &target{name: "TestCount", stats: &TestStats{}}
	reg := rt.Result{Outcome: "panic", Site: "q.go:20", Message: "panic: q: count registered twice"}
	s.onePerProcess(held, reg)
	for range rerunEvidence {
		s.rerunFirst(held, pass)
	}
	s.noteOnePerProcess([]*target{late, few, held})
	if late.stats.OnePerProcess || few.stats.OnePerProcess || !held.stats.OnePerProcess {
		t.Errorf("one per process in the stats: refuted %v, one fresh run %v, held %v; want the held one only", late.stats.OnePerProcess, few.stats.OnePerProcess, held.stats.OnePerProcess)
	}
	if len(s.notes) != 1 || !strings.HasPrefix(s.notes[0], "TestCount: searched one schedule per process") {
		t.Errorf("notes %q; want TestCount's alone", s.notes)
	}
}
