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

// twoClosed loops on a select of two closed channels until it has seen
// both closed (go-pkgz/pool's workers: each case sets its flag).
func twoClosed(t *testing.T) {
	a, b := make(chan int), make(chan int)
	Close(a)
	Close(b)
	aDone, bDone := false, false
	for !aDone || !bDone {
		switch k := Select(false, RecvCase(a), RecvCase(b)); k {
		case 0:
			if _, ok := <-PickRecv(k, 0, a); !ok {
				aDone = true
			}
		case 1:
			if _, ok := <-PickRecv(k, 1, b); !ok {
				bDone = true
			}
		}
	}
}

// A loop that waits for two closed channels in one select ends under the
// unperturbed schedule too: Go picks among ready cases at random, and the
// schedule takes the next ready case when the loop took a closed, empty
// channel there last time (unstarve). Always the first, it spun to the
// step bound. Its replay takes the same cases.
func TestPlainSelectLeavesDrainedCase(t *testing.T) {
	rs := RunSchedules(t, Config{Strategy: "plain", Schedules: 1, Seed: 1, MaxSteps: 20000, StepTimeout: 5 * time.Second}, twoClosed, nil)
	r := rs[0]
	if r.Outcome != "pass" || r.Inconclusive != "" || r.Steps > 10 {
		t.Fatalf("%s %q after %d steps (inconclusive %q), want a pass in a few", r.Outcome, r.Message, r.Steps, r.Inconclusive)
	}
	rp := RunSchedules(t, Config{Replay: &Schedule{Seed: r.Seed, Decisions: r.Decisions}, StepTimeout: 5 * time.Second, MaxSteps: 20000}, twoClosed, nil)
	if p := rp[0]; p.Outcome != "pass" || p.Diverged != "" || p.Steps != r.Steps {
		t.Errorf("replay: %s, diverged %q, %d steps; want the same %d", p.Outcome, p.Diverged, p.Steps, r.Steps)
	}
}
