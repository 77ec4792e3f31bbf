package explore

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// refindFailure is a failure of the fake's test that ran after another
// schedule in its process (prior) and whose replay alone diverges and
// passes: pond's TestPoolWithQueueSizeOne in a batch process.
func refindFailure(t *testing.T, test string) (*search, *target, *checks.Finding, string) {
	t.Helper()
	f := &failure{kind: checks.TestFailure, message: "test failed: read: reset", site: "/src/k/k_test.go:60", seed: 4, strategy: "random",
		decisions: []rt.Decision{{G: 0, Site: "x.go:1", Op: "Timer.Reset"}}, prior: []rt.Result{{Index: 3, Seed: 3, Outcome: "pass"}}}
	s, tg, fd := fakeFinding(t, test, f)
	tg.stats = &TestStats{}
	s.hardStop = time.Now().Add(time.Minute)
	return s, tg, fd, test + "|" + f.key()
}

// TestRefindAlone: a cause whose failing schedule ran after others in its
// process and did not replay alone is searched for again with its test
// alone, one schedule per fresh process; the failure found there, first
// in its process, replays and is reported instead of a note. Fails
// without refind.go (the cause is a note: "did not reproduce").
func TestRefindAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _, fd, k := refindFailure(t, "TestRefind")
	findings, keys := s.replayCauses(ctx, []checks.Finding{*fd}, []string{k})
	if len(findings) != 1 {
		t.Fatalf("%d findings, notes %q; want the failure found again alone", len(findings), s.notes)
	}
	f := s.failures[keys[0]]
	if !f.firstInProcess() || f.decisions[0].Op != "go" {
		t.Errorf("kept failure: prior %d, first decision %q; want the fresh process's first schedule", len(f.prior), f.decisions[0].Op)
	}
	if findings[0].NotReplayed != "" {
		t.Errorf("finding not replayed: %q", findings[0].NotReplayed)
	}
	// Its schedule file (named by the failure's key, as the search's was)
	// now holds the refound schedule.
	path := filepath.Join(s.opts.Dir, findings[0].Schedule)
	sched, err := ReadSchedule(path)
	if err != nil {
		t.Fatal(err)
	}
	if sched.Decisions[0].Op != "go" {
		t.Errorf("schedule's first decision %q; want the fresh process's", sched.Decisions[0].Op)
	}
	r, err := s.replayer(s.owners[k]).run(ctx, sched, path)
	if err != nil || r.Outcome != Reproduced {
		t.Errorf("its replay: %+v, %v; want reproduced", r, err)
	}
}

// TestRefindOrderDependent: a failure that needs what ran before it in
// its process (it never fails as a process's first schedule) is not
// found alone: it stays a note, which says the test alone did not fail so.
func TestRefindOrderDependent(t *testing.T) {
	t.Parallel()
	s, _, fd, k := refindFailure(t, "TestRefindNever")
	findings, _ := s.replayCauses(context.Background(), []checks.Finding{*fd}, []string{k})
	if len(findings) != 0 {
		t.Fatalf("%d findings; want none", len(findings))
	}
	if len(s.notes) != 1 || !strings.Contains(s.notes[0], "fresh processes running it alone, one schedule each") {
		t.Errorf("notes %q; want the refind's processes told", s.notes)
	}
}

// TestRefindAfterEarlier: a failure that replayed only after the schedules
// its process ran before it (labelled order-dependent) but that its test
// also has alone is told by a fresh process's schedule, which replays
// alone with no order label; one its test never has alone keeps the
// schedules before it and the label.
func TestRefindAfterEarlier(t *testing.T) {
	t.Parallel()
	for test, wantOrder := range map[string]bool{"TestRefindPrior": false, "TestRefindPriorNever": true} {
		s, _, fd, k := refindFailure(t, test)
		findings, keys := s.replayCauses(context.Background(), []checks.Finding{*fd}, []string{k})
		if len(findings) != 1 {
			t.Errorf("%s: %d findings, notes %q; want one", test, len(findings), s.notes)
			continue
		}
		if got := findings[0].AfterEarlier != nil; got != wantOrder {
			t.Errorf("%s: AfterEarlier %+v; want set %v", test, findings[0].AfterEarlier, wantOrder)
		}
		if f := s.failures[keys[0]]; f.firstInProcess() == wantOrder {
			t.Errorf("%s: kept failure first in its process %v; want %v", test, f.firstInProcess(), !wantOrder)
		}
	}
}

// TestNotAfterStoppedEarlier: a failure that replays only after an
// earlier schedule of its process that the step bound stopped midway
// needs what a test go test never interrupts left behind: not a finding,
// and the note says why (ants' TestMultiPoolReleaseContext). With the
// earlier schedule complete, the same failure is a finding (as in
// TestRefindAfterEarlier).
func TestNotAfterStoppedEarlier(t *testing.T) {
	t.Parallel()
	s, _, fd, k := refindFailure(t, "TestRefindPriorNever")
	f := s.failures[k]
	f.prior[0].Inconclusive = rt.StepBoundPrefix + "no end after 200 scheduling steps"
	findings, _ := s.replayCauses(context.Background(), []checks.Finding{*fd}, []string{k})
	if len(findings) != 0 {
		t.Fatalf("%d findings (%s); want none", len(findings), findings[0].Message)
	}
	if !slices.ContainsFunc(s.notes, func(n string) bool { return strings.Contains(n, "the step bound stopped midway") }) {
		t.Errorf("notes %q; want the stopped earlier schedule named", s.notes)
	}
}
