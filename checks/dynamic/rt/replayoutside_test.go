package rt

import (
	"os"
	"sync"
	"testing"
	"time"
)

// timerWakesOutside: two goroutines each wait on their own timer with a
// receive the rewriter left as written (a dependency's select: only its
// time operations are rewritten), so they wait outside control; the
// timers fire together and both come back at a lock. With slow set, g1
// runs a while (real time, no scheduling point) before it comes back.
func timerWakesOutside(slow *bool) func(t *testing.T) {
	return func(t *testing.T) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		n := 0
		for i := 0; i < 2; i++ {
			WaitGroupAdd(&wg, 1)
			first := i == 0
			Go(func() {
				defer WaitGroupDone(&wg)
				tm := NewTimer(0)
				<-tm.C // uncontrolled: blocks for real
				if first && *slow {
					for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
					}
				}
				Lock(&mu)
				n++
				Unlock(&mu)
			})
		}
		WaitGroupWait(&wg)
		if n != 2 {
			t.Fatalf("n = %d", n)
		}
	}
}

// TestReplayWaitsOutside: a replay waits for the goroutine its next
// decision names when it is outside control and running (woken by a timer
// that fired into a channel it waits on for real), rather than diverge
// because another woken goroutine came back first. (TestOldDependencies
// in explore: "decision 11: expected g1 at values.go:16 (Timer.Stop), g1
// is not enabled".)
func TestReplayWaitsOutside(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	slow := false
	body := timerWakesOutside(&slow)
	var rec *Result
	for _, r := range RunSchedules(t, Config{Schedules: 40, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}, body, nil) {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s: %s", r.Index, r.Outcome, r.Message)
		}
		// g1's lock decided before g2's.
		for _, d := range r.Decisions {
			if d.Op == "Mutex.Lock" {
				if d.G == 1 {
					rec = &r
				}
				break
			}
		}
		if rec != nil {
			break
		}
	}
	if rec == nil {
		t.Fatal("no schedule locked in g1 first")
	}
	slow = true
	sched := &Schedule{Seed: rec.Seed, Decisions: rec.Decisions}
	rs := RunSchedules(t, Config{Replay: sched, StepTimeout: 10 * time.Second}, body, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" || rs[0].Diverged != "" {
		t.Errorf("replay with g1 slow to come back: %+v, want the schedule as recorded", rs)
	}

	// A loaded machine: g1 takes three step timeouts to come back while
	// the process gets no CPU time. The replay waits on (starvedMore)
	// rather than diverge at the step limit.
	defer func(f func() (time.Duration, bool)) { cpuNow = f }(cpuNow)
	cpuNow = func() (time.Duration, bool) { return time.Second, true }
	rs = RunSchedules(t, Config{Replay: sched, StepTimeout: 100 * time.Millisecond}, body, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" || rs[0].Diverged != "" {
		t.Errorf("replay with g1 slow to come back in a starved process: %+v, want the schedule as recorded", rs)
	}
}
