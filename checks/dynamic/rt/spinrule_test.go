package rt

import (
	"sync"
	"testing"
	"time"
)

// A loop polls, with select default and Now, for goroutines it has just
// started while another goroutine's 2s timer is pending: the started
// goroutines run before the clock passes the 1s poll deadline.
func TestSpinPreemptsForStartedGoroutines(t *testing.T) {
	for _, strat := range []string{PlainStrategy, ""} {
		spinPreempts(t, strat)
	}
}

func spinPreempts(t *testing.T, strat string) {
	rs := RunSchedules(t, Config{Schedules: 20, Seed: 1, Strategy: strat, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		stop := make(chan struct{})
		defer Close(stop)
		Go(func() {
			tm := NewTimer(2 * time.Second)
			defer TimerStop(tm)
			k := Select(false, RecvCase(tm.C), RecvCase(stop))
			switch k {
			case 0:
				<-PickRecv(k, 0, tm.C)
			case 1:
				<-PickRecv(k, 1, stop)
			}
		})
		pending := NewTimer(2 * time.Second) // a deadline the clock could jump to
		defer TimerStop(pending)
		done := make(chan struct{}, 3)
		for i := 0; i < 3; i++ {
			Go(func() { Send(done, struct{}{}) })
		}
		deadline := Now().Add(time.Second)
		for n := 0; n < 3; {
			if !Now().Before(deadline) {
				t.Errorf("%d of 3 started goroutines ran within the 1s poll", n)
				return
			}
			k := Select(true, RecvCase(done))
			if k == 0 {
				<-PickRecv(k, 0, done)
				n++
			}
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("strategy %q: %s %q %q", strat, r.Outcome, r.Message, r.Inconclusive)
		}
	}
}

// A loop reading the clock while it polls a channel with select default
// (Now is a scheduling point only every nowSpins calls) sees time pass.
func TestSpinNowLoopSeesTimePass(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		ch := make(chan struct{}, 1)
		deadline := Now().Add(time.Second)
		for !Now().After(deadline) {
			if k := Select(true, RecvCase(ch)); k == 0 {
				t.Error("nothing was sent")
			}
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("%s %q %q", r.Outcome, r.Message, r.Inconclusive)
		}
	}
}

// A receiver blocked for real while the test goroutine slept outside
// control (blockForReal) is taken back when the sleeper returns, although
// the sleeper then spins and the scheduler is never idle: a sender whose
// select cannot be polled (it has a send case) must find the receiver.
func TestSpinRecallsBlockedForReal(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 10 * time.Second}, func(t *testing.T) {
		jobs := make(chan int)
		quit := make(chan struct{})
		defer Close(quit)
		got := make(chan int, 1)
		Go(func() { Send(got, Recv(jobs)) })
		time.Sleep(100 * time.Millisecond) // real: outside control
		Go(func() {
			k := Select(false, SendCase(jobs), RecvCase(quit))
			switch k {
			case 0:
				PickSend(k, 0, jobs) <- 1
			case 1:
				<-PickRecv(k, 1, quit)
			}
		})
		for {
			if k := Select(true, RecvCase(got)); k == 0 {
				if v := <-PickRecv(k, 0, got); v != 1 {
					t.Errorf("got %d", v)
				}
				return
			}
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("%s %q %q", r.Outcome, r.Message, r.Inconclusive)
		}
	}
}

// A loop polls, with select default and Now, for a goroutine it has just
// started that first waits for a lock of code that is not rewritten (held
// for 50ms of real time: a log line written to a slow pipe): the clock
// does not pass the 1s poll deadline while that goroutine is held.
func TestSpinWaitsForHeldGoroutine(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 10 * time.Second}, func(t *testing.T) {
		var mu sync.Mutex // not controlled
		mu.Lock()
		go func() {
			time.Sleep(50 * time.Millisecond)
			mu.Unlock()
		}()
		done := make(chan struct{}, 1)
		Go(func() {
			mu.Lock()
			//lint:ignore SA2001 the worker only has to get the lock once
			mu.Unlock()
			Send(done, struct{}{})
		})
		deadline := Now().Add(time.Second)
		for Now().Before(deadline) {
			if k := Select(true, RecvCase(done)); k == 0 {
				<-PickRecv(k, 0, done)
				return
			}
		}
		t.Error("the started goroutine did not finish within the 1s poll")
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("schedule %d: %s %q %q", r.Index, r.Outcome, r.Message, r.Inconclusive)
		}
	}
}
