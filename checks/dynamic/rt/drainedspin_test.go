package rt

import (
	"sync/atomic"
	"testing"
	"time"
)

// A goroutine that waits for a flag in a loop of receives from closed
// channels (ants' ReleaseContext) only spins: the unperturbed schedule
// gives the goroutine that sets the flag, ready since the loop began, its
// turn (spinStarved), and the test ends in a few hundred steps instead of
// running the loop alone to the step bound.
func TestClosedChannelLoopSpins(t *testing.T) {
	body := func(t *testing.T) {
		done, start := make(chan struct{}), make(chan struct{})
		var flag int32
		Go(func() {
			Recv(start)
			Atomic(&flag)
			atomic.StoreInt32(&flag, 1)
		})
		Close(done)
		Close(start) // the setter is ready from here on
		for {
			if Select(false, RecvCase(done)) == 0 {
				<-PickRecv(0, 0, done)
			}
			Recv(done)
			if Then(AtomicLoad(&flag), atomic.LoadInt32(&flag)) == 1 {
				return
			}
		}
	}
	for _, strat := range []string{"plain", "random", "pct", "pos"} {
		rs := RunSchedules(t, Config{Strategy: strat, Schedules: 3, Seed: 1, MaxSteps: 20000, StepTimeout: 5 * time.Second}, body, nil)
		for _, r := range rs {
			if r.Outcome != "pass" || r.Inconclusive != "" {
				t.Fatalf("%s schedule %d: %s %s %q", strat, r.Index, r.Outcome, r.Inconclusive, r.Message)
			}
			if r.Steps > 1000 {
				t.Errorf("%s schedule %d: %d steps, want the loop to give way within a few hundred", strat, r.Index, r.Steps)
			}
		}
	}
}
