package rt

import (
	"strings"
	"sync/atomic"
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

// TestLivelockBesideIdleTimers: a timer that fires while goroutines spin
// and wakes nobody (a ticker nobody reads, an AfterFunc whose callback
// only re-arms itself, one carried from an earlier schedule of the
// process) is no progress: the two livelocks (a loop rereading the clock,
// one rereading the same words) are reported beside it. Before, a timer
// pending reset the evidence at each turn: the step bound, or a pass.
func TestLivelockBesideIdleTimers(t *testing.T) {
	var words [3]int64
	rescan := func() {
		for {
			for i := range words {
				if Then(AtomicLoad(&words[i]), atomic.LoadInt64(&words[i])) != 0 {
					return // nobody sets one
				}
			}
		}
	}
	clockLoop := func() {
		at := Now().Add(10 * time.Millisecond)
		Sleep(20 * time.Millisecond)
		next := at
		for next.Before(Now()) {
			if next.Equal(at) {
				next = time.Time{}
			}
		}
	}
	ticker := func() { NewTicker(10 * time.Millisecond) }
	// The callbacks read the timer through an atomic: a plain variable
	// assigned after AfterFunc returned is a race of the test's own under
	// -race (AfterFunc orders only what came before the call).
	rearming := func() {
		var tm atomic.Pointer[time.Timer]
		tm.Store(AfterFunc(5*time.Millisecond, func() { TimerReset(tm.Load(), 5*time.Millisecond) }))
	}
	var stop atomic.Bool
	var hourly func()
	hourly = func() {
		if !stop.Load() {
			AfterFunc(time.Hour, hourly)
		}
	}
	carried := func() {}
	for _, c := range []struct {
		name        string
		timer, spin func()
	}{
		{"clock/ticker", ticker, clockLoop},
		{"clock/rearming", rearming, clockLoop},
		{"clock/carried", carried, clockLoop},
		{"rescan/carried", carried, rescan},
	} {
		if strings.HasSuffix(c.name, "carried") {
			// Left pending by a schedule before (TestCarriedAfterFunc did
			// so to TestClockLoopHang run after it).
			stop.Store(false)
			RunFunc(Config{Seed: 1}, 0, func() { AfterFunc(time.Hour, hourly) })
		}
		r := RunFunc(Config{Seed: 1, StepTimeout: 5 * time.Second}, 1, func() {
			c.timer()
			done := make(chan bool)
			Go(func() { c.spin(); Send(done, true) })
			Recv(done)
		})
		if r.Outcome != "fatal" || !strings.HasPrefix(r.Message, "livelock:") {
			t.Errorf("%s: want a livelock, got %s %q (inconclusive: %q)", c.name, r.Outcome, r.Message, r.Inconclusive)
		}
		stop.Store(true)
		RunFunc(Config{Seed: 1}, 2, func() { Sleep(2 * time.Hour) }) // no timer left
	}

	// A callback that re-arms itself and, at its third firing, sets a
	// word the loop rereads is progress: the loop ends.
	r := RunFunc(Config{Seed: 1, StepTimeout: 5 * time.Second}, 3, func() {
		fired := 0
		var tm atomic.Pointer[time.Timer]
		tm.Store(AfterFunc(5*time.Millisecond, func() {
			if fired++; fired == 3 {
				Atomic(&words[1])
				atomic.StoreInt64(&words[1], 1)
			}
			TimerReset(tm.Load(), 5*time.Millisecond)
		}))
		done := make(chan bool)
		Go(func() { rescan(); Send(done, true) })
		Recv(done)
		TimerStop(tm.Load())
	})
	if r.Outcome != "pass" || r.Inconclusive != "" {
		t.Errorf("a callback that sets the word: want a pass, got %s %q (inconclusive: %q)", r.Outcome, r.Message, r.Inconclusive)
	}
}
