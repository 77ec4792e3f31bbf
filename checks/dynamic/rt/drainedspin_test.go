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

// threeClosed is twoClosed with three channels (ants' ReleaseContext
// waits on three).
func threeClosed(t *testing.T) {
	a, b, c := make(chan int), make(chan int), make(chan int)
	Close(a)
	Close(b)
	Close(c)
	done := [3]bool{}
	for !done[0] || !done[1] || !done[2] {
		switch k := Select(false, RecvCase(a), RecvCase(b), RecvCase(c)); k {
		case 0:
			if _, ok := <-PickRecv(k, 0, a); !ok {
				done[0] = true
			}
		case 1:
			if _, ok := <-PickRecv(k, 1, b); !ok {
				done[1] = true
			}
		case 2:
			if _, ok := <-PickRecv(k, 2, c); !ok {
				done[2] = true
			}
		}
	}
}

// A loop that waits for two (or three) closed channels in one select ends under the
// unperturbed schedule too: Go picks among ready cases at random, and the
// schedule takes the next ready case when the loop took a closed, empty
// channel there last time (unstarve). Always the first, it spun to the
// step bound. Its replay takes the same cases.
func TestPlainSelectLeavesDrainedCase(t *testing.T) {
	for name, body := range map[string]func(*testing.T){"two": twoClosed, "three": threeClosed} {
		rs := RunSchedules(t, Config{Strategy: "plain", Schedules: 1, Seed: 1, MaxSteps: 20000, StepTimeout: 5 * time.Second}, body, nil)
		r := rs[0]
		if r.Outcome != "pass" || r.Inconclusive != "" || r.Steps > 12 {
			t.Fatalf("%s: %s %q after %d steps (inconclusive %q), want a pass in a few", name, r.Outcome, r.Message, r.Steps, r.Inconclusive)
		}
		rp := RunSchedules(t, Config{Replay: &Schedule{Seed: r.Seed, Decisions: r.Decisions}, StepTimeout: 5 * time.Second, MaxSteps: 20000}, body, nil)
		if p := rp[0]; p.Outcome != "pass" || p.Diverged != "" || p.Steps != r.Steps {
			t.Errorf("%s: replay: %s, diverged %q, %d steps; want the same %d", name, p.Outcome, p.Diverged, p.Steps, r.Steps)
		}
	}
}
