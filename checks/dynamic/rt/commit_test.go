package rt

import (
	"os"
	"testing"
	"time"
)

// The kernels below block a worker in a select first (the test sleeps:
// under control a sleep ends only when nothing else can run), then
// complete one of its cases with a buffered send, a receive from a full
// buffer or a close, then make another case ready. In the runtime the
// worker is woken on the first case and cannot take the other: each
// kernel passes on every schedule (ristretto's processItems took `stop`
// under interleave although a buffered Set had handed it an item).

// commitSend: a buffered send hands its value to the blocked select.
func commitSend(t *testing.T) {
	items := make(chan int, 4)
	stop := make(chan struct{})
	done := make(chan int)
	Go(func() {
		got := 0
		for {
			k := Select(false, RecvCase(items), RecvCase(stop))
			select {
			case v := <-PickRecv(k, 0, items):
				got += v
			case <-PickRecv(k, 1, stop):
				Send(done, got)
				return
			}
		}
	})
	Sleep(time.Millisecond)
	Send(items, 1)
	Send(stop, struct{}{})
	if got := Recv(done); got != 1 {
		t.Errorf("the worker took stop before the item handed to it: got %d, want 1", got)
	}
}

// commitRecv: a receive from a full buffer takes the blocked select's
// value (into the buffer).
func commitRecv(t *testing.T) {
	out := make(chan int, 1)
	stop := make(chan struct{})
	done := make(chan struct{})
	Go(func() {
		for i := 1; ; i++ {
			k := Select(false, SendCase(out), RecvCase(stop))
			select {
			case PickSend(k, 0, out) <- i:
				SelectSent()
			case <-PickRecv(k, 1, stop):
				Close(done)
				return
			}
		}
	})
	Sleep(time.Millisecond) // 1 in out, the worker blocked sending 2
	if v := Recv(out); v != 1 {
		t.Errorf("first value %d, want 1", v)
	}
	Send(stop, struct{}{})
	Recv(done)
	k := Select(true, RecvCase(out))
	select {
	case v := <-PickRecv(k, 0, out):
		if v != 2 {
			t.Errorf("second value %d, want 2", v)
		}
	default:
		t.Error("the worker took stop after the receive had taken its value 2")
	}
}

// commitClose: a close wakes the blocked select on its case.
func commitClose(t *testing.T) {
	quit := make(chan struct{})
	items := make(chan int, 1)
	took := make(chan string, 1)
	Go(func() {
		k := Select(false, RecvCase(quit), RecvCase(items))
		select {
		case <-PickRecv(k, 0, quit):
			Send(took, "quit")
		case <-PickRecv(k, 1, items):
			Send(took, "item")
		}
	})
	Sleep(time.Millisecond)
	Close(quit)
	Send(items, 1)
	if c := Recv(took); c != "quit" {
		t.Errorf("the worker took %s after the close had woken it", c)
	}
}

// commitRealClose: a close outside control (a context's cancel, which
// the rewrite does not see, in another goroutine) wakes the blocked
// select on its case too: an unbuffered send on its other case, by a
// goroutine that gets there after the close, cannot pair with it (puddle
// v1.3.0's Acquire and its constructor).
func commitRealClose(t *testing.T) {
	done := make(chan struct{})
	results := make(chan int)
	took := make(chan string, 1)
	Go(func() {
		k := Select(false, RecvCase(done), RecvCase(results))
		select {
		case <-PickRecv(k, 0, done):
			Send(took, "done")
		case <-PickRecv(k, 1, results):
			Send(took, "result")
		}
	})
	Sleep(time.Millisecond)
	canceled := make(chan struct{})
	Go(func() {
		close(done) // for real, as a context's cancel: the scheduler does not see it
		Close(canceled)
	})
	Recv(canceled)
	k := Select(false, SendCase(results), RecvCase(done))
	select {
	case PickSend(k, 0, results) <- 1:
		SelectSent()
	case <-PickRecv(k, 1, done):
	}
	if c := Recv(took); c != "done" {
		t.Errorf("the waiter took %s after the close had woken it", c)
	}
}

// TestSelectCommit: each kernel passes on every schedule, and a replay of
// a schedule takes the decisions recorded (the commit is part of the
// state a decision leaves).
func TestSelectCommit(t *testing.T) {
	for _, k := range []struct {
		name string
		body func(*testing.T)
	}{{"send", commitSend}, {"recv", commitRecv}, {"close", commitClose}, {"real close", commitRealClose}} {
		t.Run(k.name, func(t *testing.T) {
			rs := RunSchedules(t, Config{Schedules: 100, Seed: 1, Strategy: "random", StepTimeout: 5 * time.Second}, k.body, nil)
			mustPass(t, rs)
			if len(rs) != 100 {
				t.Fatalf("%d schedules, want 100", len(rs))
			}
			last := rs[len(rs)-1]
			sch := &Schedule{Version: ScheduleVersion, Seed: last.Seed, Decisions: last.Decisions}
			r := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, k.body)
			if r.Outcome != "pass" || r.Diverged != "" || len(r.Decisions) != len(last.Decisions) {
				t.Errorf("replay: %s, diverged %q, %d decisions; want a pass on the %d recorded", r.Outcome, r.Diverged, len(r.Decisions), len(last.Decisions))
			}
		})
	}
}

// freshSelect: the worker comes to its select as the test queues a job and
// closes quit (released together by the ready hand-off): it may evaluate
// its cases after both, and take quit with the job pending. A real bug
// (plain go test fails now and then): a select that came at the current
// virtual time is not committed.
func freshSelect(t *testing.T) {
	ready := make(chan struct{})
	jobs := make(chan int, 1)
	quit := make(chan struct{})
	handled := make(chan int)
	Go(func() {
		n := 0
		Send(ready, struct{}{})
		for {
			k := Select(false, RecvCase(jobs), RecvCase(quit))
			select {
			case j := <-PickRecv(k, 0, jobs):
				n += j
			case <-PickRecv(k, 1, quit):
				Send(handled, n)
				return
			}
		}
	})
	Recv(ready)
	Send(jobs, 1)
	Close(quit)
	if n := Recv(handled); n != 1 {
		t.Errorf("handled %d jobs, want 1", n)
	}
}

// TestSelectCommitFresh: the drop is found, and its schedule replays (in
// a process of its own: the schedules' tests fail for real).
func TestSelectCommitFresh(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestFreshSelect", Strategy: "random", Seed: 1, Schedules: 100, StepTimeout: 10 * time.Second})
	var found *Result
	for i, r := range rs {
		if r.Outcome == "test-failure" {
			found = &rs[i]
			break
		}
	}
	if found == nil {
		t.Fatalf("%d schedules, no dropped job: %v\n%s", len(rs), outcomes(rs), out)
	}
	sch := &Schedule{Version: ScheduleVersion, Test: "TestFreshSelect", Seed: found.Seed, Decisions: found.Decisions}
	rep, out, _ := runMain(t, Config{Test: "TestFreshSelect", Replay: sch, StepTimeout: 10 * time.Second})
	if len(rep) != 1 || rep[0].Outcome != "test-failure" || rep[0].Diverged != "" {
		t.Errorf("replay: %+v, want the test failure\n%s", rep, out)
	}
}
