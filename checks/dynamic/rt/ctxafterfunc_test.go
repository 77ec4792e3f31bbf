package rt

import (
	"context"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// ctxAfterFuncClose is bench/recall's ctxafterfuncstop in rt's calls: the
// function registered with context.AfterFunc posts a notice; Close stops
// it and closes the channel, ignoring stop's result, while another
// goroutine cancels. With wait set, Close waits for a started function
// before it closes (the correct twin). The send and the close are each
// made under mu, so that they are ordered for the race detector (a send
// racing a close is a data race under -race, which would fail this test
// binary): the send still panics when the close came first.
func ctxAfterFuncClose(wait bool) func(t *testing.T) {
	return func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		var mu sync.Mutex
		notices := make(chan string, 1)
		fired := make(chan struct{})
		stop := ContextAfterFunc(ctx, func() {
			Lock(&mu)
			Send(notices, "canceled")
			Unlock(&mu)
			Close(fired)
		})
		Go(cancel)
		if !stop() && wait {
			Recv(fired)
		}
		Lock(&mu)
		Close(notices)
		Unlock(&mu)
		for range Range(notices) {
		}
	}
}

// TestContextAfterFuncJoins: the function joins the schedule at its
// registration, so the search can run it after Close closed the channel,
// and the panic replays with the same decisions. Before, it ran outside
// control, at machine speed, and stop was no scheduling point: no
// schedule failed.
func TestContextAfterFuncJoins(t *testing.T) {
	rs := explore(t, 200, ctxAfterFuncClose(false))
	o := outcomes(rs)
	if o["panic"] == 0 || o["pass"] == 0 {
		t.Fatalf("want both outcomes, got %v", o)
	}
	for _, r := range rs {
		if r.Outcome != "panic" {
			continue
		}
		if !strings.Contains(r.Message, "send on closed channel") {
			t.Fatalf("panic %q, want a send on the closed channel", r.Message)
		}
		joined := false
		for _, d := range r.Decisions {
			joined = joined || d.Op == opJoinName
		}
		if !joined {
			t.Fatalf("schedule %d panicked with no join decision: %+v", r.Index, r.Decisions)
		}
		sch := &Schedule{Version: ScheduleVersion, Test: "ctxAfterFuncClose", Seed: r.Seed, Decisions: r.Decisions}
		var rep Result
		t.Run("replay", func(t *testing.T) {
			rep = RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, ctxAfterFuncClose(false))
		})
		if rep.Outcome != "panic" || rep.Diverged != "" || !reflect.DeepEqual(rep.Decisions, r.Decisions) {
			t.Fatalf("replay: %s (diverged %q), want the panic with the same decisions", rep.Outcome, rep.Diverged)
		}
		return
	}
}

// TestContextAfterFuncWaited: the correct twin passes on every schedule;
// when Close waits for the function, nothing else can run until it
// queues, which the scheduler waits for (awaitArmed), not a deadlock.
func TestContextAfterFuncWaited(t *testing.T) {
	mustPass(t, explore(t, 200, ctxAfterFuncClose(true)))
}

// TestContextAfterFuncLate: the function queues long after its context
// is done (the canceling goroutine holds the joiners' lock for a second,
// longer than the scheduler polls for channels fed outside control), and
// Close waits for it: the scheduler waits for the function to join
// (awaitArmed) instead of calling the test deadlocked.
func TestContextAfterFuncLate(t *testing.T) {
	mustPass(t, explore(t, 3, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		fired := make(chan struct{})
		stop := ContextAfterFunc(ctx, func() { Close(fired) })
		Go(func() {
			lockJoins()
			cancel()
			go func() {
				time.Sleep(time.Second)
				unlockJoins()
			}()
		})
		if !stop() {
			Recv(fired)
		}
	}))
}
