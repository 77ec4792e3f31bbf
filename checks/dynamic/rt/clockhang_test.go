package rt

import (
	"strings"
	"testing"
	"time"
)

// TestClockLoopHang: a start that rereads the clock until a one-time
// job's next run is in the future, where the job has no next run once its
// time has passed, never returns; its caller waits forever. The loop
// reads the clock, which moves for it, but nothing else can happen: a
// livelock, reported within the step bound.
func TestClockLoopHang(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		at := Now().Add(10 * time.Millisecond)
		Sleep(20 * time.Millisecond) // the job's time passes
		start, started := make(chan bool), make(chan bool)
		Go(func() {
			Recv(start)
			next := at
			for next.Before(Now()) {
				if next.Equal(at) {
					next = time.Time{} // no run after the only one
				}
			}
			Send(started, true)
		})
		Send(start, true)
		Recv(started)
	}, nil)
	if r := rs[0]; r.Outcome != "fatal" || !strings.HasPrefix(r.Message, "livelock:") {
		t.Fatalf("want a livelock, got %s %q (inconclusive: %q)", r.Outcome, r.Message, r.Inconclusive)
	}
}

// TestClockLoopEnds: a loop waiting on the clock alone for a minute ends
// (the clock moves for it), with every other goroutine blocked.
func TestClockLoopEnds(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		done := make(chan bool)
		Go(func() {
			start := Now()
			for Since(start) < time.Minute {
			}
			Send(done, true)
		})
		Recv(done)
	}, nil)
	if r := rs[0]; r.Outcome != "pass" || r.Inconclusive != "" {
		t.Fatalf("want a pass, got %s %q (inconclusive: %q)", r.Outcome, r.Message, r.Inconclusive)
	}
}
