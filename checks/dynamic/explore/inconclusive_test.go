package explore

import (
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestFrequencyLeavesOutInconclusive: a failure's frequency counts the
// schedules that ended passing or failing; those that ended neither (a
// test failure after a timer fired early, the step bound) are left out and
// said. go-generics-cache's janitor, never stopped, leaked on every
// conclusive schedule and was "on 149 of 180 schedules
// (schedule-dependent)".
func TestFrequencyLeavesOutInconclusive(t *testing.T) {
	s, tg, _ := newFakeSearch(t, "TestCallJanitor", fakeBudget, 1)
	tg.stats = &TestStats{}
	leak := func(i int) rt.Result {
		return rt.Result{Index: i, Seed: int64(i + 1), Outcome: string(checks.Leak), Message: "leak: goroutines still running after the test returned", Site: "/src/k/janitor.go:37"}
	}
	early := rt.Result{Index: 3, Seed: 4, Outcome: "pass", Inconclusive: "timeout: the test failed after a timer fired before goroutines that could run"}
	bound := rt.Result{Index: 4, Seed: 5, Outcome: "pass", Inconclusive: rt.StepBoundPrefix + " 20000"}
	results := []rt.Result{leak(0), leak(1), leak(2), early, bound}
	for _, r := range results {
		s.counted(tg, r)
	}
	keys := s.collect(tg, &childOutcome{crashed: -1, leftovers: -1, results: results}, 0, "random")
	if len(keys) != 1 {
		t.Fatalf("keys %v, want the leak", keys)
	}
	for k := range keys {
		s.mu.Lock()
		q := s.frequency(tg, tg.name+"|"+k)
		s.mu.Unlock()
		if q == nil || !q.Every() || q.Schedules != 3 || q.Inconclusive != 2 {
			t.Fatalf("frequency %+v; want 3 of 3, 2 inconclusive left out", q)
		}
		if want := "on every schedule tried (3; 2 more ended inconclusive)"; q.Label() != want {
			t.Errorf("label %q, want %q", q.Label(), want)
		}
	}
}
