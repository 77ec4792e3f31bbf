package rt

import (
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// finalizedStore is a store whose cleaner goroutine ends when the store's
// wrapper is collected: a finalizer sends on the cleaner's stop channel
// (ulule/limiter's memory store). The cleaner's ticker, of 10 ns, is due
// again once the cleaner's read of the clock has moved it (NowTick), so
// the cleaner never waits for time.
type finalizedStore struct {
	mu      sync.Mutex
	stamped time.Time
	stop    chan bool
}

type storeWrapper struct{ *finalizedStore }

func newFinalizedStore() *storeWrapper {
	s := &finalizedStore{stop: make(chan bool)}
	Go(func() {
		tk := NewTicker(10 * time.Nanosecond)
		for {
			k := Select(false, RecvCase(tk.C), RecvCase(s.stop))
			select {
			case <-PickRecv(k, 0, tk.C):
				Lock(&s.mu)
				s.stamped = Now()
				Unlock(&s.mu)
			case <-PickRecv(k, 1, s.stop):
				TickerStop(tk)
				return
			}
		}
	})
	w := &storeWrapper{s}
	runtime.SetFinalizer(w, func(w *storeWrapper) { Send(w.stop, true) })
	return w
}

// TestFinalizerStopsCleaner: a test that drops such a store leaves its
// cleaner to the collection go test's process makes in time; under control
// one is made before the leftover cleaner is called a leak, and every
// schedule passes. Before, no collection came (the clock moved only by
// reads), 321 of 325 schedules of ulule/limiter's TestCacheReset leaked,
// and a finalizer blocked on a cleaner unwound at an earlier schedule's
// end kept every later cleaner from ending.
func TestFinalizerStopsCleaner(t *testing.T) {
	rs := explore(t, 20, func(t *testing.T) {
		w := newFinalizedStore()
		Lock(&w.mu)
		w.stamped = Now()
		Unlock(&w.mu)
	})
	if o := outcomes(rs); o["pass"] != len(rs) || len(rs) != 20 {
		for _, r := range rs {
			if r.Outcome != "pass" {
				t.Fatalf("outcomes %v, want 20 passes; first failing: %s %s", o, r.Outcome, r.Message)
			}
		}
		t.Fatalf("outcomes %v, want 20 passes", o)
	}
}

// TestFinalizerFreesBlocked: the same with a goroutine that only waits for
// the finalizer's send (no ticker, no timer to wait for): the collection
// comes before the leak verdict too, and every schedule passes.
func TestFinalizerFreesBlocked(t *testing.T) {
	type waiter struct{ stop chan bool }
	rs := explore(t, 6, func(t *testing.T) {
		w := &waiter{stop: make(chan bool)}
		Go(func() { Recv(w.stop) })
		runtime.SetFinalizer(w, func(w *waiter) { Send(w.stop, true) })
	})
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("seed %d: %s %s, want a pass: the finalizer's send frees the waiter", r.Seed, r.Outcome, r.Message)
		}
	}
}

// TestLeakAfterCollection: a goroutine that ticks for ever, nothing to
// stop it, is still a leak, told after the same fair window: the
// collection adds none (a window added after it turned such leaks near
// the step bound inconclusive).
func TestLeakAfterCollection(t *testing.T) {
	rs := explore(t, 3, func(t *testing.T) {
		Go(func() {
			tk := NewTicker(10 * time.Nanosecond)
			for {
				Now() // the tick is due before each receive: no wait for time
				Recv(tk.C)
			}
		})
	})
	for _, r := range rs {
		if r.Outcome != "leak" || !strings.Contains(r.Message, "4000 decisions later, the last 2000 fair") {
			t.Fatalf("seed %d: %s %q, want a leak told 4000 decisions after the test returned", r.Seed, r.Outcome, r.Message)
		}
	}
}
