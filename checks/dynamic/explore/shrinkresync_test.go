package explore

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestShrinkLeavesWithChoices: a shrinking try that takes a preemption
// out and then leaves the recorded decisions goes on unperturbed with
// each select's recorded case (rt.Schedule.Resync), and is kept once its
// own decisions replay to the failure. httprc's Remove, with a canceled
// context, kept two preemptions besides the two choices its failure
// hangs on, and was a finding of its own. The fake's tries fail only
// with Resync; without the preemption pass's leave the schedule stays
// at its two preemptions.
func TestShrinkLeavesWithChoices(t *testing.T) {
	f := &failure{kind: checks.TestFailure, message: "test failed: lost update", site: "/src/k/k_test.go:90", seed: 1, strategy: "random",
		decisions: []rt.Decision{
			{G: 0, Site: "k.go:1", Op: "atomic", Obj: 1}, {G: 1, Site: "k.go:2", Op: "atomic", Obj: 1},
			{G: 0, Site: "k.go:3", Op: "atomic", Obj: 1}, {G: 1, Site: "k.go:4", Op: "atomic", Obj: 1},
		}}
	fd := shrunkFinding(t, "TestShrinkResync", f)
	if it := fd.Interleaving; it.Original != 2 || it.Preemptions != 0 {
		t.Errorf("told with %d preemptions (%d before shrinking), want 0 (2)", it.Preemptions, it.Original)
	}
}

// TestShrinkCutsLaterPreemptions: a schedule of 38 preemptions whose
// failure needs only g1 to run second: taken out one at a time, the
// shrinking runs end with 24 left; what is left then goes all at once
// (the decisions before one preemption, then the goroutine preempted
// there runs on), found by bisection in a few runs (each cut that fails
// is replayed once more on its own decisions), and it is told with at
// most two.
func TestShrinkCutsLaterPreemptions(t *testing.T) {
	var ds []rt.Decision
	for i := 0; i < 40; i++ {
		ds = append(ds, rt.Decision{G: i % 2, Site: "k.go:" + strconv.Itoa(i+1), Op: "atomic", Obj: 1})
	}
	f := &failure{kind: checks.TestFailure, message: "test failed: lost update", site: "/src/k/k_test.go:90", seed: 1, strategy: "random", decisions: ds}
	fd := shrunkFinding(t, "TestShrinkCut", f)
	if it := fd.Interleaving; it.Original != 38 || it.Preemptions > 2 {
		t.Errorf("told with %d preemptions (%d before shrinking), want at most 2 (38)", it.Preemptions, it.Original)
	}
}

// shrunkFinding reports f, a failure of the fake's test, as the search
// does after its end (replayed, shrunk, told), and checks that it is one
// finding whose printed schedule replays as it is.
func shrunkFinding(t *testing.T, test string, f *failure) checks.Finding {
	t.Helper()
	s, tg, _ := fakeFinding(t, test, f)
	tg.plainGo = &plainOutcome{} // ran under plain go test already: no label runs
	s.hardStop = time.Now().Add(time.Hour)
	res, err := s.report(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 {
		t.Fatalf("%d findings, want 1 (notes %q)", len(res.Findings), res.Notes)
	}
	fd := res.Findings[0]
	if fd.NotReplayed != "" || fd.Interleaving == nil {
		t.Fatalf("finding not replayed (%q) or not told: %+v", fd.NotReplayed, fd)
	}
	if why, unchecked := s.replaysAlone(context.Background(), tg, &fd, nil); why != "" || unchecked {
		t.Errorf("the finding's schedule does not replay: %q, %v", why, unchecked)
	}
	return fd
}
