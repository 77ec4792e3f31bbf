package rt

import (
	"sync/atomic"
	"testing"
	"time"
)

// Every rt test counts the candidates of each decision one by one as well
// (checkPassed) and panics when a lazy count differs.
func init() { checkPassCounts = true }

// TestPassCountsLazy: a thousand goroutines woken at once, each run to its
// end in turn, cost the pass counts about a count each per decision they
// take part in as one that just became ready or runs, not one per
// candidate per decision (a million here).
func TestPassCountsLazy(t *testing.T) {
	const n = 1000
	var done atomic.Int32
	body := func(t *testing.T) {
		for i := 0; i < n; i++ {
			Go(func() {
				Sleep(time.Millisecond)
				var v int32
				for j := 0; j < 3; j++ {
					Atomic(&v)
					atomic.AddInt32(&v, 1)
				}
				done.Add(1)
			})
		}
		Sleep(time.Second)
	}
	for _, strat := range []Strategy{Plain{}, &PCT{Depth: 3}, &RandomWalk{}} {
		done.Store(0)
		before := passCounted
		r := RunSchedule(t, Config{Seed: 1, StepTimeout: 5 * time.Second, MaxSteps: 100 * n}, 0, strat, nil, body)
		counted := passCounted - before
		if r.Outcome != "pass" || done.Load() != n {
			t.Fatalf("%T: %s (%s), %d of %d done", strat, r.Outcome, r.Message, done.Load(), n)
		}
		if counted > 20*r.Steps {
			t.Errorf("%T: %d counts over %d decisions: more than 20 a decision", strat, counted, r.Steps)
		}
		t.Logf("%T: %d counts over %d decisions", strat, counted, r.Steps)
	}
}
