package rt

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// poolLen is a worker pool that counts its running workers in a buffered
// channel: Submit hands a task over an unbuffered channel to a dispatcher
// goroutine, which takes a slot in workers and starts the worker; the test
// then expects len(workers) to be 1 (it panics when not: a failing
// schedule here fails the test that runs the schedules). Under go test the dispatcher, woken
// by the hand-off, usually takes the slot before the submitter reads the
// length, and rarely after (cilium/workerpool's TestWorkerPoolLen fails
// 43 of 3,000 runs of go test -race). Before len of a channel was a
// scheduling point, the submitter ran on from the hand-off to the read
// and every schedule failed, the unperturbed one included.
func poolLen(t *testing.T) {
	tasks := make(chan func())
	workers := make(chan struct{}, 1)
	stop := make(chan struct{})
	Go(func() { // the dispatcher
		for task := range Range(tasks) {
			Send(workers, struct{}{})
			Go(func() {
				task()
				Recv(workers)
			})
		}
	})
	Send(tasks, func() { Recv(stop) }) // the dispatcher is not waiting yet
	if n := ChanLen(workers); n != 1 {
		panic(fmt.Sprintf("running workers: got %d, want 1", n))
	}
	Close(stop)
	Close(tasks)
}

// TestChanLenUnperturbed: the unperturbed schedule takes the order go test
// usually takes: the dispatcher, which came second to the hand-off, runs
// on and takes its slot before the submitter reads the length.
func TestChanLenUnperturbed(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, poolLen, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("want the unperturbed schedule to pass, got %+v", rs)
	}
}

// TestChanLenEitherOrder: other schedules read the length before the
// slot is taken as well as after (some fail, some pass), and a failing
// one replays.
func TestChanLenEitherOrder(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 50, Seed: 1, Strategy: "random", StepTimeout: 5 * time.Second}, poolLen, nil)
	var failed *Result
	passed := 0
	for i, r := range rs {
		switch r.Outcome {
		case "pass":
			passed++
		case "panic":
			if !strings.Contains(r.Message, "running workers: got 0, want 1") {
				t.Fatalf("schedule %d: %s", r.Index, r.Message)
			}
			if failed == nil {
				failed = &rs[i]
			}
		default:
			t.Fatalf("schedule %d: %s: %s", r.Index, r.Outcome, r.Message)
		}
	}
	if failed == nil || passed == 0 {
		t.Fatalf("%d of %d schedules passed; want some to pass and some to fail", passed, len(rs))
	}
	sch := &Schedule{Version: ScheduleVersion, Seed: failed.Seed, Decisions: failed.Decisions}
	r := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, poolLen)
	if r.Outcome != "panic" || r.Site != failed.Site || r.Diverged != "" {
		t.Errorf("replay: %s at %s (diverged %q), want the recorded panic at %s", r.Outcome, r.Site, r.Diverged, failed.Site)
	}
}

// TestChanLenPolls: a loop that polls a channel's length until a sleeper
// sends is a polling loop, as one of atomic loads is: the virtual clock
// moves, the sleeper wakes and sends, and the schedule passes within its
// steps.
func TestChanLenPolls(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second, MaxSteps: 5000}, func(t *testing.T) {
		ch := make(chan int, 1)
		Go(func() {
			Sleep(time.Millisecond)
			Send(ch, 1)
		})
		for ChanLen(ch) == 0 {
		}
		Recv(ch)
	}, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" || rs[0].Inconclusive != "" {
		t.Fatalf("want a pass, got %+v", rs)
	}
}
