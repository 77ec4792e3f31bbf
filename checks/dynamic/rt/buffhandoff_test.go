package rt

import (
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
