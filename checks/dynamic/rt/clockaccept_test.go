package rt

import (
	"errors"
	"net"
	"sync"
	"testing"
	"time"
)

// readyPoll is nats-server's RunServer in rt's calls: a server listens on a
// loopback socket and starts its accept loop (a controlled goroutine that
// waits in Accept, in real I/O), then initialises (steps of its own under a
// lock) before it says it is ready; the test polls readiness every 10ms of
// the clock for up to 2s. Under go test it is ready at the first look.
// With steps < 0 it never is.
func readyPoll(steps int, got *error) func(t *testing.T) {
	return func(t *testing.T) {
		*got = nil
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			*got = err
			return
		}
		var mu sync.Mutex
		ready := false
		accepting := make(chan struct{})
		Go(func() {
			defer Close(accepting)
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		})
		Go(func() {
			if steps < 0 {
				return
			}
			for i := 0; i < steps; i++ {
				Lock(&mu)
				Unlock(&mu)
			}
			Lock(&mu)
			ready = true
			Unlock(&mu)
		})
		start := Now()
		for {
			Lock(&mu)
			r := ready
			Unlock(&mu)
			if r {
				break
			}
			if Since(start) > 2*time.Second {
				*got = errors.New("not ready after 2s")
				break
			}
			Sleep(10 * time.Millisecond)
		}
		ln.Close()
		Recv(accepting)
	}
}

// TestClockAcceptIsNotOutsideWorld: a goroutine waiting in Accept for a
// connection is idle, not work under way outside control: the clock must
// not keep pace with the real time the scheduler spends meanwhile (50ms a
// decision here, a loaded machine), or the readiness poll runs out.
func TestClockAcceptIsNotOutsideWorld(t *testing.T) {
	slowScheduler(t, 50*time.Millisecond)
	var got error
	RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 5 * time.Second}, readyPoll(20, &got), func(r Result) bool {
		if r.Outcome != "pass" || got != nil {
			t.Errorf("schedule %d: %s %q: %v", r.Index, r.Outcome, r.Message, got)
		}
		return true
	})
}

// TestClockAcceptPollStillRunsOut: the near miss. A server that never says
// it is ready: the poll must still run out at 2s of the clock, in every
// schedule and in the replay of one.
func TestClockAcceptPollStillRunsOut(t *testing.T) {
	var got error
	want := "not ready after 2s"
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 5 * time.Second}, readyPoll(-1, &got), func(r Result) bool {
		if r.Outcome != "pass" || got == nil || got.Error() != want {
			t.Errorf("schedule %d: %s %q: %v, want %q", r.Index, r.Outcome, r.Message, got, want)
		}
		return true
	})
	r := rs[0]
	sch := &Schedule{Version: ScheduleVersion, Test: "readyPoll", Seed: r.Seed, Decisions: r.Decisions}
	rep := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, readyPoll(-1, &got))
	if rep.Outcome != "pass" || rep.Diverged != "" || got == nil || got.Error() != want {
		t.Fatalf("replay: %s (diverged %q): %v, want %q", rep.Outcome, rep.Diverged, got, want)
	}
}
