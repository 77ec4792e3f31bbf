package rt

import (
	"os"
	"testing"
	"time"
)

// idleCloser closes a connection idle for idle. Each ping (queued: the
// client does not wait) stops the timer and resets it; drain says whether
// the stop is the drain idiom of Go before 1.23 (if !Stop() { <-C }) or
// leaves a value the timer sent in C (asyncTimerChan: the next select
// reads it, stale). The pings come well inside the idle time: the timer
// fires only while the loop runs on from a queued ping to its Stop (a
// loaded machine's delay), never while it waits.
func idleCloser(t *testing.T, drain bool) {
	asyncTimerChan = true // the child process's: as a //go:debug line
	const idle = 200 * time.Millisecond
	pings := make(chan struct{}, 1)
	closed := make(chan struct{})
	var idleFor time.Duration
	Go(func() {
		tm := NewTimer(idle)
		last := Now()
		for {
			k := Select(false, RecvCase(pings), RecvCase(tm.C))
			select {
			case <-PickRecv(k, 0, pings):
				if !TimerStop(tm) && drain {
					Recv(tm.C)
				}
				last = Now()
				TimerReset(tm, idle)
			case <-PickRecv(k, 1, tm.C):
				idleFor = Since(last)
				Close(closed)
				return
			}
		}
	})
	for range 3 {
		k := Select(false, SendCase(pings), RecvCase(closed))
		select {
		case PickSend(k, 0, pings) <- struct{}{}:
		case <-PickRecv(k, 1, closed):
		}
		Sleep(50 * time.Millisecond)
	}
	Recv(closed)
	if idleFor < idle {
		t.Fatalf("closed after %v idle, want at least %v", idleFor, idle)
	}
}

// TestOwnTimerStaleRead: a timer fires while its goroutine runs on to its
// Stop or its select (ownDeadline), which the search did not try before
// (the clock moved early only for a goroutine waiting on the timer's
// channel): the stale value the Reset leaves is read, and the test fails
// on the code's bug, not on a timeout that came too soon (staleRead). Its
// replay reproduces it; the drain idiom never fails.
func TestOwnTimerStaleRead(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestOwnStale", Strategy: "random", Seed: 1, Schedules: 100, StepTimeout: 10 * time.Second})
	var found *Result
	for i, r := range rs {
		if r.Outcome != "pass" && r.Outcome != "test-failure" {
			t.Fatalf("schedule %d: %s: %s\n%s", r.Index, r.Outcome, r.Message, out)
		}
		for _, mv := range r.EarlyMoves {
			for _, w := range mv.Ended {
				if w.Own != "" && r.Outcome == "test-failure" && found == nil {
					found = &rs[i]
				}
			}
		}
	}
	if len(rs) != 100 || found == nil {
		for _, r := range rs {
			if r.Inconclusive != "" || r.Outcome != "pass" {
				t.Logf("schedule %d: %s %s %q", r.Index, r.Outcome, r.Message, r.Inconclusive)
			}
		}
		t.Fatalf("%d schedules, none failed on a stale value after the timer fired before its own Stop or select", len(rs))
	}
	rep, out, _ := runMain(t, Config{Test: "TestOwnStale", Replay: &Schedule{Seed: found.Seed, Decisions: found.Decisions}, StepTimeout: 10 * time.Second})
	if len(rep) != 1 || rep[0].Outcome != "test-failure" || rep[0].Diverged != "" {
		t.Errorf("replay: %+v, want the failure as recorded\n%s", rep, out)
	}
	ok, out, _ := runMain(t, Config{Test: "TestOwnStaleDrained", Strategy: "random", Seed: 1, Schedules: 100, StepTimeout: 10 * time.Second})
	for _, r := range ok {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("drain idiom, schedule %d: %s %s %s\n%s", r.Index, r.Outcome, r.Message, r.Inconclusive, out)
		}
	}
	if len(ok) != 100 {
		t.Errorf("drain idiom: %d schedules, want 100\n%s", len(ok), out)
	}
}

// pollDrain: a job's timer says whether the job was slow; the worker
// polls it (select with a default) and, for the next job, stops it with
// the drain idiom, which blocks for good when the poll took the value.
func pollDrain(t *testing.T) {
	jobs := make(chan int)
	done := make(chan bool)
	Go(func() {
		tm := NewTimer(100 * time.Millisecond)
		for range Range(jobs) {
			if !TimerStop(tm) {
				Recv(tm.C)
			}
			TimerReset(tm, 100*time.Millisecond)
			slow := false
			k := Select(true, RecvCase(tm.C))
			select {
			case <-PickRecv(k, 0, tm.C):
				slow = true
			default:
			}
			Send(done, slow)
		}
	})
	for range 2 {
		Send(jobs, 1)
		Recv(done)
	}
	Close(jobs)
}

// TestOwnTimerPollDrain: the timer fires while the worker runs on to its
// poll (a select with a default): the next Stop reports it expired and
// the drain blocks for good. A deadlock, found and replayed.
func TestOwnTimerPollDrain(t *testing.T) {
	cfg := Config{Schedules: 300, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}
	var found *Result
	for _, r := range RunSchedules(t, cfg, pollDrain, nil) {
		if r.Outcome == "deadlock" {
			found = &r
			break
		}
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s: %s", r.Index, r.Outcome, r.Message)
		}
	}
	if found == nil {
		t.Fatal("no schedule fired the timer before the worker's poll: the drain's deadlock was not found")
	}
	rs := RunSchedules(t, Config{Replay: &Schedule{Seed: found.Seed, Decisions: found.Decisions}, StepTimeout: 10 * time.Second}, pollDrain, nil)
	if len(rs) != 1 || rs[0].Outcome != "deadlock" || rs[0].Diverged != "" {
		t.Errorf("replay: %+v, want the deadlock as recorded", rs)
	}
}
