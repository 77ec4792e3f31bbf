package rt

import (
	"sync"
	"testing"
	"time"
)

// queueOfTwo: two workers block receiving on a queue of capacity 2 (one in
// a select, one in a plain receive; the test sleeps: a sleep ends only
// when nothing else can run), then the test sends two jobs and tries two
// more without blocking. In the runtime each of the first two sends hands
// its job to a waiting worker and the buffer stays empty, so the next two
// fit: the kernel passes on every schedule (reugn/async's TestExecutor
// found its queue full under interleave: ErrExecutorQueueFull).
func queueOfTwo(t *testing.T) {
	q := make(chan int, 2)
	got := make(chan int, 2)
	Go(func() {
		k := Select(false, RecvCase(q))
		//lint:ignore S1000 the shape the rewriter gives a select
		select {
		case v := <-PickRecv(k, 0, q):
			Send(got, v)
		}
	})
	Go(func() { Send(got, Recv(q)) })
	Sleep(time.Millisecond)
	Send(q, 1)
	Send(q, 2)
	for i := 3; i <= 4; i++ {
		k := Select(true, SendCase(q))
		select {
		case PickSend(k, 0, q) <- i:
			SelectSent()
		default:
			t.Errorf("send %d found the queue full: the jobs before it were handed to waiting workers", i)
		}
	}
	if a, b := Recv(got), Recv(got); a+b != 3 {
		t.Errorf("the workers got %d and %d, want 1 and 2", a, b)
	}
}

// TestBufferedSendHandsOff: the kernel passes on every schedule and its
// last schedule replays.
func TestBufferedSendHandsOff(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 100, Seed: 1, Strategy: "random", StepTimeout: 5 * time.Second}, queueOfTwo, nil)
	mustPass(t, rs)
	if len(rs) != 100 {
		t.Fatalf("%d schedules, want 100", len(rs))
	}
	last := rs[len(rs)-1]
	sch := &Schedule{Version: ScheduleVersion, Seed: last.Seed, Decisions: last.Decisions}
	r := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, queueOfTwo)
	if r.Outcome != "pass" || r.Diverged != "" || len(r.Decisions) != len(last.Decisions) {
		t.Errorf("replay: %s, diverged %q, %d decisions; want a pass on the %d recorded", r.Outcome, r.Diverged, len(r.Decisions), len(last.Decisions))
	}
}

// slotFirstTaker: a channel semaphore of one slot, held by the test;
// worker a blocks acquiring it, then worker b (the newest, released
// through gate after a blocked, in a select), both at the same virtual
// time; the test frees the slot and returns the worker that took it. In
// the runtime the receive gives the freed slot to the sender queued
// first, and the unperturbed schedule, which runs the newest goroutine
// when the last one blocks, gave it to b (go-pkgz/syncs'
// TestErrorSizedGroup_TermOnErr: its unperturbed schedule gave the
// semaphore's slots to the newest of the blocked workers and failed,
// where go test passes).
func slotFirstTaker() string {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 1)
	gate := make(chan struct{})
	Send(sem, struct{}{})
	order := make(chan string, 2)
	WaitGroupAdd(&wg, 1)
	Go(func() { // a: queues first
		WaitGroupDone(&wg)
		Send(sem, struct{}{})
		Send(order, "a")
		Recv(sem)
	})
	Go(func() { // b: the newest, queues second
		Recv(gate)
		k := Select(false, SendCase(sem))
		//lint:ignore S1000 the shape the rewriter gives a select
		select {
		case PickSend(k, 0, sem) <- struct{}{}:
			SelectSent()
		}
		Send(order, "b")
		Recv(sem)
	})
	WaitGroupWait(&wg)
	Send(gate, struct{}{})
	Sleep(time.Millisecond)
	Recv(sem)
	first := Recv(order)
	Recv(order)
	return first
}

// TestBufferedRecvHandsOff: the unperturbed schedule gives the freed slot
// to the sender queued first, a; the search to either (blocked at the
// same virtual time, either may have queued first); a schedule replays.
func TestBufferedRecvHandsOff(t *testing.T) {
	var first string
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, func(*testing.T) { first = slotFirstTaker() }, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" || first != "a" {
		t.Fatalf("unperturbed: %s took the slot (want a, queued first); %+v", first, rs)
	}
	seen := map[string]bool{}
	rs = RunSchedules(t, Config{Schedules: 100, Seed: 1, Strategy: "random", StepTimeout: 5 * time.Second}, func(*testing.T) { seen[slotFirstTaker()] = true }, nil)
	mustPass(t, rs)
	if !seen["a"] || !seen["b"] {
		t.Errorf("the search gave the slot first to %v, want both a and b among 100 schedules", seen)
	}
	last := rs[len(rs)-1]
	sch := &Schedule{Version: ScheduleVersion, Seed: last.Seed, Decisions: last.Decisions}
	r := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, func(*testing.T) { slotFirstTaker() })
	if r.Outcome != "pass" || r.Diverged != "" || len(r.Decisions) != len(last.Decisions) {
		t.Errorf("replay: %s, diverged %q, %d decisions; want a pass on the %d recorded", r.Outcome, r.Diverged, len(r.Decisions), len(last.Decisions))
	}
}
