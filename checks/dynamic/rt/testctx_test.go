package rt

import (
	"testing"
	"time"
)

// ctxWorkers is a test whose goroutines wait on t.Context() (a worker
// pool started with it): go test cancels it when the function returns,
// before the cleanups run, and they end.
func ctxWorkers(t *testing.T) {
	ctx := t.Context()
	for i := 0; i < 2; i++ {
		Go(func() {
			Recv(ctx.Done())
			if ctx.Err() == nil {
				panic("Done closed, Err nil")
			}
		})
	}
	// A subtest's context ends with the subtest's function.
	Run(t, "sub", func(t *testing.T) {
		sub := t.Context()
		Go(func() { Recv(sub.Done()) })
		Cleanup(t, func() {
			if sub.Err() == nil {
				t.Error("the subtest's t.Context() not cancelled when its cleanups run")
			}
		})
	})
	// Its goroutine waiting on both the test's context and a timer.
	Go(func() {
		tm := NewTimer(time.Hour)
		k := Select(false, RecvCase(ctx.Done()), RecvCase(tm.C))
		select {
		case <-PickRecv(k, 0, ctx.Done()):
			TimerStop(tm)
		case <-PickRecv(k, 1, tm.C):
		}
	})
	Cleanup(t, func() {
		if ctx.Err() == nil {
			t.Error("t.Context() not cancelled when the cleanups run")
		}
	})
}

// TestContextCancelledAtReturn: goroutines waiting on t.Context() end
// under control once the test's function returns, before the leak check,
// as under go test; the test passes on every schedule.
func TestContextCancelledAtReturn(t *testing.T) {
	for _, strategy := range []string{PlainStrategy, "random", "pct"} {
		rs := RunSchedules(t, Config{Schedules: 10, Seed: 1, Strategy: strategy, StepTimeout: 5 * time.Second}, ctxWorkers, nil)
		for _, r := range rs {
			if r.Outcome != "pass" || r.Inconclusive != "" {
				t.Fatalf("%s, seed %d: %s %s: %s", strategy, r.Seed, r.Outcome, r.Inconclusive, firstLineOf(r.Message))
			}
		}
	}
}

// TestLeakBesideContext: a goroutine that does not wait on t.Context()
// and is never freed is still a leak when others that wait on it end,
// and the schedule replays to the same leak.
func TestLeakBesideContext(t *testing.T) {
	body := func(t *testing.T) {
		ctxWorkers(t)
		never := make(chan int)
		Go(func() { Recv(never) })
	}
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, StepTimeout: 5 * time.Second}, body, nil)
	for _, r := range rs {
		if r.Outcome != "leak" || len(r.Goroutines) != 1 {
			t.Fatalf("seed %d: %s with %d goroutines, want a leak of one: %s", r.Seed, r.Outcome, len(r.Goroutines), firstLineOf(r.Message))
		}
		sch := &Schedule{Version: ScheduleVersion, Test: "leak", Seed: r.Seed + 1000, Decisions: r.Decisions}
		again := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, body)
		if again.Outcome != "leak" || again.Site != r.Site || again.Diverged != "" {
			t.Fatalf("replay of seed %d: %s at %s (diverged %q), want leak at %s", r.Seed, again.Outcome, again.Site, again.Diverged, r.Site)
		}
	}
}

// TestContextOfOtherTB: a TB that is not testing's (nil, or a type of
// the test's own) has no cancel function to find.
func TestContextOfOtherTB(t *testing.T) {
	if testCancelOf(nil) != nil {
		t.Error("nil TB: a cancel function")
	}
	type fakeTB struct {
		testing.TB
		cancelCtx func()
	}
	if testCancelOf(&fakeTB{cancelCtx: func() {}}) != nil {
		t.Error("a TB of another type: a cancel function")
	}
	if testCancelOf(t) == nil {
		t.Error("*testing.T: no cancel function (the testing package's layout changed)")
	}
}
