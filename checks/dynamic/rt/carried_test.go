package rt

import (
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// expiring plays cache2go's table, kept by name across tests: Add arms a
// cleanup timer only when none is pending sooner, and the cleanup expires
// what is due and re-arms for the next.
type expiring struct {
	mu       sync.Mutex
	expires  map[string]time.Time
	interval time.Duration // of the pending cleanup timer, 0 for none
}

func (e *expiring) add(key string, life time.Duration) {
	Lock(&e.mu)
	e.expires[key] = Now().Add(life)
	armed := e.interval
	Unlock(&e.mu)
	if armed == 0 || life < armed {
		e.cleanup()
	}
}

func (e *expiring) cleanup() {
	Lock(&e.mu)
	defer Unlock(&e.mu)
	now := Now()
	var next time.Duration
	for k, at := range e.expires {
		if left := at.Sub(now); left <= 0 {
			delete(e.expires, k)
		} else if next == 0 || left < next {
			next = left
		}
	}
	e.interval = next
	if next > 0 {
		AfterFunc(next, func() { e.cleanup() })
	}
}

func (e *expiring) has(key string) bool {
	Lock(&e.mu)
	defer Unlock(&e.mu)
	_, ok := e.expires[key]
	return ok
}

// TestCarriedAfterFunc: a cache whose cleanup timers outlive each
// schedule keeps working from one schedule to the next: the timers the
// test left pending fire at the schedule's end (settleAfterFuncs), and the
// items of the next schedule, which arm no timer of their own while one
// is pending, expire. A callback that re-arms itself for ever fires
// settleMax times there; the timer still pending then is carried and
// fires in the next schedule, while its test runs, not once it has
// returned (a goroutine it left blocked waits).
func TestCarriedAfterFunc(t *testing.T) {
	e := &expiring{expires: map[string]time.Time{}}
	body := func() {
		e.add("a", 400*time.Millisecond)
		e.add("b", 200*time.Millisecond)
		Sleep(100 * time.Millisecond)
		if !e.has("a") {
			t.Error("a expired after 100ms of its 400ms")
		}
		Sleep(150 * time.Millisecond)
		if e.has("b") {
			t.Errorf("b is there after 250ms of its 200ms")
		}
	}
	for i := 0; i < 3; i++ {
		if r := RunFunc(Config{Seed: 1}, i, body); r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s %s", i, r.Outcome, r.Message)
		}
	}

	var fired atomic.Int32
	var stop atomic.Bool
	var rearm func()
	rearm = func() {
		fired.Add(1)
		if !stop.Load() {
			AfterFunc(time.Hour, rearm)
		}
	}
	RunFunc(Config{Seed: 1}, 0, func() { AfterFunc(time.Hour, rearm) })
	if n := fired.Load(); n != settleMax {
		t.Fatalf("a self-re-arming callback fired %d times after its test, want %d", n, settleMax)
	}
	r := RunFunc(Config{Seed: 1}, 1, func() {
		never := make(chan int)
		Go(func() { Recv(never) })
	})
	if n := fired.Load(); n != settleMax {
		t.Errorf("the carried timer fired after the next test had returned (%s)", r.Outcome)
	}
	RunFunc(Config{Seed: 1}, 2, func() { Sleep(2 * time.Hour) })
	if n := fired.Load(); n <= settleMax {
		t.Error("the carried timer did not fire in a later test that ran past it")
	}
	// Leave no timer pending for the tests after this one in the process
	// (a pending timer keeps TestClockLoopHang from its livelock verdict).
	stop.Store(true)
	RunFunc(Config{Seed: 1}, 3, func() { Sleep(2 * time.Hour) })
}

// afterFuncLeft closes the results channel on a deadline with
// time.AfterFunc and leaves the timer pending when the worker was first
// (bench/recall's afterfuncclose); the close and the send under one lock,
// as afterFuncClose's.
func afterFuncLeft(t *testing.T) {
	var mu sync.Mutex
	out := make(chan int, 1)
	AfterFunc(100*time.Millisecond, func() { closeLocked(&mu, out) })
	Go(func() { sendLocked(&mu, out, 7) })
	Recv2(out)
}

// TestSettledAfterFunc: an AfterFunc a schedule left pending fires in that
// schedule, after its end, so the next schedule of the process starts as
// a fresh process does: every schedule that sends on the closed channel
// replays, the first of the process or not. Before, the pending timer was
// carried into the next schedule, where its callback became a goroutine a
// fresh process does not have ("expected g3 at (start), g3 does not
// exist"). A callback failing after the test is not the test's failure.
func TestSettledAfterFunc(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	cfg := Config{Schedules: 300, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}
	var found []Result
	for _, r := range RunSchedules(t, cfg, afterFuncLeft, nil) {
		switch r.Outcome {
		case "panic":
			if r.Index > 0 && len(found) < 3 {
				found = append(found, r)
			}
		case "pass":
		default:
			t.Fatalf("schedule %d: %s: %s", r.Index, r.Outcome, r.Message)
		}
	}
	if len(found) == 0 {
		t.Fatal("no schedule after the first sent on the closed channel")
	}
	for _, f := range found {
		sched := &Schedule{Seed: f.Seed, Decisions: f.Decisions}
		rs := RunSchedules(t, Config{Replay: sched, StepTimeout: 10 * time.Second}, afterFuncLeft, nil)
		if len(rs) != 1 || rs[0].Outcome != "panic" || rs[0].Diverged != "" {
			t.Errorf("replay of schedule %d: %+v, want the panic as recorded", f.Index, rs)
		}
	}

	late := RunFunc(Config{Seed: 1}, 0, func() {
		AfterFunc(time.Hour, func() { panic("an hour later") })
	})
	if late.Outcome != "pass" || !strings.HasPrefix(late.Inconclusive, SettleFailPrefix) {
		t.Errorf("a callback that panics after the test: %s %q (inconclusive %q), want a pass marked %q", late.Outcome, late.Message, late.Inconclusive, SettleFailPrefix)
	}
}
