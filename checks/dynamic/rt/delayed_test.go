package rt

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// lateConsumer: a producer hands values to a consumer through a small
// buffer, dropping a value (and sleeping a microsecond) when the buffer is
// full, then sleeps a millisecond "for the consumer" and expects room for
// one more. On a loaded machine the consumer may not have run at all by
// then: the buffer is still full. When it ran part of its work instead,
// the stop that follows may find values still in the buffer: another
// failure of the same test. The test's Fatal leaves the consumer running
// on its cleanup ticker, which is not the test's hang.
func lateConsumer(t *testing.T) {
	buf := make(chan int, 4)
	stop := make(chan struct{})
	var mu sync.Mutex
	sum := 0
	Go(func() {
		tk := NewTicker(time.Second) // a periodic cleanup
		defer TickerStop(tk)
		for {
			k := Select(false, RecvCase(buf), RecvCase(stop), RecvCase(tk.C))
			select {
			case v := <-PickRecv(k, 0, buf):
				Lock(&mu)
				sum += v
				Unlock(&mu)
			case <-PickRecv(k, 1, stop):
				return
			case <-PickRecv(k, 2, tk.C):
			}
		}
	})
	var pmu sync.Mutex
	sent := 0
	put := func(v int) bool {
		Lock(&pmu) // the producer's own bookkeeping
		sent++
		Unlock(&pmu)
		k := Select(true, SendCase(buf))
		select {
		case PickSend(k, 0, buf) <- v:
			return true
		default:
			return false
		}
	}
	for i := 1; i <= 20; i++ {
		if !put(i) {
			Sleep(time.Microsecond)
		}
	}
	Sleep(time.Millisecond)
	if !put(100) {
		t.Fatal("no room a millisecond later")
	}
	Send(stop, struct{}{})
	if len(buf) > 0 {
		t.Fatal("stopped with values pending")
	}
}

// TestDelayedConsumer: with KeepEarly (repro's), a sleep that ends while
// a consumer that could run has been passed over for a stretch most
// likely ends before it ran at all, and the consumer stays delayed while
// the producer runs (earlyDelayedOdds, heldRun): the "no room" failure is
// found on 39 of 100 PCT schedules (2 with the plain odds, earlyOdds, at
// every decision), and replays.
func TestDelayedConsumer(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	cfg := Config{Test: "TestLateConsumer", Strategy: "pct", Seed: 1, Schedules: 100, StepTimeout: 10 * time.Second, KeepEarly: true}
	rs, out, _ := runMain(t, cfg)
	// Each schedule's result says "test failed"; the child's output
	// says which check failed, after its "schedule start N".
	var found *Result
	n := 0
	for _, part := range strings.Split(out, "schedule start ")[1:] {
		if !strings.Contains(part, "no room a millisecond later") {
			continue
		}
		n++
		for i, r := range rs {
			if found == nil && strings.HasPrefix(part, strconv.Itoa(r.Index)+"\n") && r.Outcome == "test-failure" && r.Early > 0 {
				found = &rs[i]
			}
		}
	}
	t.Logf("%d schedules, %d \"no room\" failures, %d \"stopped with values pending\"", len(rs), n, strings.Count(out, "stopped with values pending"))
	if n < 10 || found == nil {
		t.Fatalf("%d schedules, %d \"no room\" failures (want 10 or more), one found after an early jump: %v; %v\n%s", len(rs), n, found != nil, outcomes(rs), out)
	}
	sched := &Schedule{Seed: found.Seed, Decisions: found.Decisions, KeepEarly: true}
	again, out, _ := runMain(t, Config{Test: "TestLateConsumer", Replay: sched, KeepEarly: true, StepTimeout: 10 * time.Second})
	if len(again) != 1 || again[0].Outcome != "test-failure" || !strings.Contains(out, "no room a millisecond later") || again[0].Diverged != "" {
		t.Errorf("replay: %+v, want the failure as recorded\n%s", again, out)
	}
}

// TestReplayWaitsForTestEnd: the test's goroutine ends after a wait
// outside control (here a real sleep; after a Fatal, testing's own code
// on a loaded machine) while a worker keeps deciding. The recording saw
// its end at some decision; a replay whose end comes sooner or later must
// still count the steps after the test from that decision (Decision.Done):
// it replays without diverging. Before, TestDelayedConsumer's replay
// diverged now and then at load (decision 4092 of 4104).
func TestReplayWaitsForTestEnd(t *testing.T) {
	var realWait time.Duration
	body := func(t *testing.T) {
		stop := make(chan struct{})
		var mu sync.Mutex
		n := 0
		Go(func() {
			for Select(true, RecvCase(stop)) != 0 {
				Lock(&mu)
				n++
				Unlock(&mu)
			}
		})
		Lock(&mu)
		Unlock(&mu)
		time.Sleep(realWait) // outside control: the worker goes on
	}
	// The worker decides while the test's goroutine sleeps for real: on a
	// loaded machine that sleep can outlast the step bound, so the bound
	// is raised and the recording tried again when it did.
	const maxSteps = 200_000
	realWait = 30 * time.Millisecond
	var rec Result
	done := -1
	for try := 0; try < 5 && done < 0; try++ {
		rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second, MaxSteps: maxSteps}, body, nil)
		if len(rs) != 1 {
			t.Fatalf("%+v", rs)
		}
		rec = rs[0]
		for i, d := range rec.Decisions {
			if d.Done {
				done = i
				break
			}
		}
	}
	if done < 0 {
		t.Fatalf("no decision says the test had ended: %d decisions, %s", len(rec.Decisions), rec.Outcome)
	}
	t.Logf("recorded: %d decisions, the test's end seen at %d, %s", len(rec.Decisions), done, rec.Outcome)
	for _, w := range []time.Duration{0, 90 * time.Millisecond} {
		realWait = w
		again := RunSchedule(t, Config{StepTimeout: 10 * time.Second, MaxSteps: maxSteps}, 0, nil, &Schedule{Seed: rec.Seed, Decisions: rec.Decisions}, body)
		if again.Diverged != "" || len(again.Decisions) != len(rec.Decisions) || again.Outcome != rec.Outcome {
			t.Errorf("replay with the test's end %v outside control: diverged %q, %d decisions, %s; want %d, %s", w, again.Diverged, len(again.Decisions), again.Outcome, len(rec.Decisions), rec.Outcome)
		}
	}
}
