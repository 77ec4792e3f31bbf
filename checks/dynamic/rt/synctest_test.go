package rt

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// refresh is a bubble's test: the refresher writes back what it read in
// another critical section, and the test's increment between them is
// lost (a panic here, so that the failing schedules do not fail the
// test running them); synctest.Wait is the join.
func refresh(t *testing.T) {
	SynctestTest(t, func(t *testing.T) {
		var mu sync.Mutex
		n := 0
		Go(func() {
			Lock(&mu)
			v := n
			Unlock(&mu)
			Lock(&mu)
			n = v + 100
			Unlock(&mu)
		})
		Lock(&mu)
		n++
		Unlock(&mu)
		SynctestWait()
		Lock(&mu)
		defer Unlock(&mu)
		if n != 101 {
			panic("lost update: n = " + strconv.Itoa(n) + ", want 101")
		}
	})
}

// TestSynctestBubble: a testing/synctest bubble's goroutines are
// controlled (synctest fixes the clock, not the order): the lost update
// is found and replays; Wait returns only once the refresher is done, so
// no schedule reads n before it. synctest's own Test ran f outside
// control, where no order could be chosen.
func TestSynctestBubble(t *testing.T) {
	var found *Result
	for _, r := range explore(t, 100, refresh) {
		if r.Outcome == "panic" {
			found = &r
			break
		}
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s: %s", r.Index, r.Outcome, r.Message)
		}
	}
	if found == nil {
		t.Fatal("the lost update in the bubble was not found")
	}
	if !strings.Contains(found.Message, "n = 100, want 101") {
		t.Errorf("failure %q, want the lost update", found.Message)
	}
	waited := false
	for _, d := range found.Decisions {
		waited = waited || d.Op == "synctest.Wait"
	}
	if !waited {
		t.Error("no synctest.Wait decision")
	}
	rs := RunSchedules(t, Config{Replay: &Schedule{Seed: found.Seed, Decisions: found.Decisions}, StepTimeout: 5e9}, refresh, nil)
	if len(rs) != 1 || rs[0].Outcome != "panic" || rs[0].Diverged != "" {
		t.Errorf("replay: %+v, want the failure as recorded", rs)
	}
}

// TestSynctestWaitJoins: Wait under control returns only when the others
// are blocked or done: the value a goroutine writes before it blocks is
// always seen.
func TestSynctestWaitJoins(t *testing.T) {
	rs := explore(t, 50, func(t *testing.T) {
		SynctestTest(t, func(t *testing.T) {
			var mu sync.Mutex
			done := false
			block := make(chan int)
			Go(func() {
				Lock(&mu)
				done = true
				Unlock(&mu)
				Recv(block)
			})
			SynctestWait()
			Lock(&mu)
			if !done {
				t.Error("Wait returned while the goroutine could run")
			}
			Unlock(&mu)
			Close(block)
		})
	})
	mustPass(t, rs)
}

// TestSynctestWaitSettles: after synctest.Wait the other goroutines are
// in their operations for real (durably blocked), so a select with
// default sending to a parked receiver takes the send, as in a bubble;
// without Wait, default stays a choice (the receiver may be on its way).
func TestSynctestWaitSettles(t *testing.T) {
	picked := map[string]int{}
	rs := explore(t, 60, func(t *testing.T) {
		SynctestTest(t, func(t *testing.T) {
			c := make(chan int)
			done := make(chan int)
			Go(func() { Send(done, Recv(c)) })
			SynctestWait()
			k := Select(true, SendCase(c))
			select {
			case PickSend(k, 0, c) <- 5:
				picked["send"]++
			default:
				picked["default"]++
				Send(c, 6)
			}
			Recv(done)
		})
	})
	mustPass(t, rs)
	if picked["default"] != 0 || picked["send"] != 60 {
		t.Fatalf("after synctest.Wait the send must be taken: %v", picked)
	}
}

// TestSynctestExactClock: in a bubble the clock reaches a deadline
// exactly and a read does not move it, as synctest's fake clock (outside
// one a sleeper wakes wakeLate past it, as the runtime's timers fire
// late, and each read moves it by NowTick).
func TestSynctestExactClock(t *testing.T) {
	var in, out time.Duration
	rs := explore(t, 3, func(t *testing.T) {
		start := Now()
		Sleep(100 * time.Millisecond)
		out = Since(start)
		SynctestTest(t, func(t *testing.T) {
			s := Now()
			Sleep(100 * time.Millisecond)
			in = Since(s)
		})
	})
	mustPass(t, rs)
	if in != 100*time.Millisecond {
		t.Errorf("slept %v in a bubble, want exactly 100ms (not wakeLate past it, no NowTick)", in)
	}
	if out <= 100*time.Millisecond {
		t.Errorf("slept %v outside a bubble, want past 100ms", out)
	}
}

// TestSynctestWaitOutsideChan: a goroutine blocked outside control on a
// channel (a dependency's select whose synchronization is not rewritten:
// mnet's Accept in jrpc2's TestLoop_cancelServers) is blocked for Wait, as
// synctest counts it: Wait returns, and the send after it wakes the
// goroutine. Before, Wait waited for it to come back until the watchdog.
func TestSynctestWaitOutsideChan(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		SynctestTest(t, func(t *testing.T) {
			ch := make(chan int) // its operations are not the scheduler's
			done := make(chan struct{})
			got := 0
			Go(func() {
				got = <-ch
				Close(done)
			})
			SynctestWait()
			ch <- 1
			Recv(done)
			if got != 1 {
				t.Errorf("got %d, want 1", got)
			}
		})
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Errorf("schedule %d: %s %q (inconclusive %q)", r.Index, r.Outcome, r.Message, r.Inconclusive)
		}
	}
}

// TestSynctestTestWaitsForRunnable: a bubble's goroutine still runnable
// when f returns (jrpc2's OnCancel hook, which logs on the test's T) runs
// until done or blocked before SynctestTest returns, as synctest.Test
// waits for it: left to run after the test, its t.Logf panicked ("Log in
// goroutine after TestClient_onCancelHook has completed"). A goroutine
// started outside the bubble is not waited for (one spins until the test
// goes on), nor a member in real I/O that the test ends afterwards, as a
// cleanup would. Each schedule replays with its decisions; a schedule
// recorded without the wait (Schedule.BubbleEnd unset) replays without
// it.
func TestSynctestTestWaitsForRunnable(t *testing.T) {
	body := func(t *testing.T) {
		var outerDone atomic.Bool
		Go(func() { // outside the bubble: runnable until the test goes on
			for !outerDone.Load() {
				Gosched()
			}
		})
		r, w, err := os.Pipe()
		if err != nil {
			panic(err)
		}
		defer r.Close()
		hooked := false
		SynctestTest(t, func(t *testing.T) {
			Go(func() { r.Read(make([]byte, 1)) }) // real I/O until w closes
			ch := make(chan int)
			Go(func() {
				Recv(ch)
				Gosched()
				hooked = true
			})
			Send(ch, 1)
		})
		w.Close()
		outerDone.Store(true)
		if !hooked {
			panic("SynctestTest returned before the bubble's runnable goroutine was done")
		}
	}
	cfg := Config{Schedules: 4, Seed: 1, MaxSteps: 20000, StepTimeout: 5 * time.Second}
	for _, strat := range []string{"plain", "random", "pct", "pos"} {
		cfg.Strategy = strat
		var rs []Result
		t.Run(strat, func(t *testing.T) { rs = RunSchedules(t, cfg, body, nil) })
		for _, r := range rs {
			if r.Outcome != "pass" || !r.BubbleEnd {
				t.Fatalf("%s schedule %d: %s %q (bubble end %v), want a pass that waited at the bubble's end", strat, r.Index, r.Outcome, r.Message, r.BubbleEnd)
			}
		}
		last := rs[len(rs)-1]
		sch := &Schedule{Version: ScheduleVersionBubbleEnd, Seed: last.Seed, Decisions: last.Decisions, BubbleEnd: true}
		var r Result
		t.Run(strat+" replay", func(t *testing.T) { r = RunSchedule(t, cfg, 0, nil, sch, body) })
		if r.Outcome != "pass" || r.Diverged != "" || !reflect.DeepEqual(r.Decisions, last.Decisions) {
			t.Errorf("%s replay: %s %q (diverged %q, %d decisions), want a pass with the %d recorded decisions", strat, r.Outcome, r.Message, r.Diverged, len(r.Decisions), len(last.Decisions))
		}
	}
	old := &Schedule{Version: ScheduleVersionSoloRun, Seed: 1}
	var r Result
	t.Run("replay without", func(t *testing.T) { r = RunSchedule(t, cfg, 0, nil, old, body) })
	if r.BubbleEnd || slices.ContainsFunc(r.Decisions, func(d Decision) bool { return d.Op == opBubbleEnd.String() }) || r.Outcome != "panic" {
		t.Errorf("replay of a schedule recorded without the bubble's end wait: %s %q, want the test's panic (it did not wait there)", r.Outcome, r.Message)
	}
}

// TestSynctestTestEndCleanups: at the bubble's end the cleanups f
// registered run first, as synctest.Test runs them inside the bubble (not
// one the test registered before it), and the wait sees the goroutines
// they release end: one they stop (before, it polled until the test's
// end: a livelock), and one that drains a long queue after them, more
// decisions than the bound; a goroutine that only polls what only the
// test's end changes (f's t.Context(), which synctest cancels when f
// returns) is waited for bubbleEndSteps decisions, not for ever.
func TestSynctestTestEndCleanups(t *testing.T) {
	body := func(t *testing.T) {
		var stopped, drained, outerDone, outerCleaned atomic.Bool
		Cleanup(t, func() { outerCleaned.Store(true) })
		SynctestTest(t, func(t *testing.T) {
			stop, start := make(chan struct{}), make(chan struct{})
			Cleanup(t, func() { Close(stop) })
			Cleanup(t, func() { Close(start) })
			Go(func() {
				for {
					k := Select(true, RecvCase(stop))
					select {
					case <-PickRecv(k, 0, stop):
						stopped.Store(true)
						return
					default:
					}
					Gosched()
				}
			})
			q := make(chan int, 3*bubbleEndSteps)
			for i := 0; i < cap(q); i++ {
				Send(q, i)
			}
			Close(q)
			Go(func() {
				Recv(start)
				for {
					if _, ok := Recv2(q); !ok {
						break
					}
				}
				drained.Store(true)
			})
			Go(func() {
				for !outerDone.Load() {
					Gosched()
				}
			})
		})
		if !stopped.Load() || !drained.Load() || outerCleaned.Load() {
			panic(fmt.Sprintf("at SynctestTest's return: stopped %v, drained %v, the test's own cleanup ran %v; want true, true, false", stopped.Load(), drained.Load(), outerCleaned.Load()))
		}
		outerDone.Store(true)
	}
	for _, strat := range []string{"plain", "random"} {
		rs := RunSchedules(t, Config{Strategy: strat, Schedules: 3, Seed: 1, MaxSteps: 50000, StepTimeout: 5 * time.Second}, body, nil)
		mustPass(t, rs)
	}
}

// TestSynctestTestWaitsForAfterFunc: an AfterFunc callback of the bubble
// (a timer one of its goroutines made) that fired before the function
// returned runs before SynctestTest returns, as synctest's callbacks run
// in the bubble it waits for: left to run after the test, one that logs
// on its T would panic.
func TestSynctestTestWaitsForAfterFunc(t *testing.T) {
	body := func(t *testing.T) {
		var ran atomic.Bool
		SynctestTest(t, func(t *testing.T) {
			AfterFunc(time.Millisecond, func() {
				Gosched()
				ran.Store(true)
			})
			Sleep(time.Millisecond)
		})
		if !ran.Load() {
			panic("SynctestTest returned before its AfterFunc callback ran")
		}
	}
	for _, strat := range []string{"plain", "random", "pct", "pos"} {
		rs := RunSchedules(t, Config{Strategy: strat, Schedules: 10, Seed: 1, MaxSteps: 20000, StepTimeout: 5 * time.Second}, body, nil)
		mustPass(t, rs)
	}
}
