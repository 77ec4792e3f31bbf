package rt

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// afterFuncClose closes the results channel on a deadline with
// time.AfterFunc, while a worker that could run still has to send. The
// timer is stopped at the end, so that none is carried into the next
// schedule of the process. The close and the send are made under one
// lock (sendLocked, closeLocked), so that -race sees no race of the kernel's own.
func afterFuncClose(t *testing.T) {
	var mu sync.Mutex
	out := make(chan int, 1)
	tm := AfterFunc(100*time.Millisecond, func() { closeLocked(&mu, out) })
	defer TimerStop(tm)
	Go(func() { sendLocked(&mu, out, 7) })
	Recv2(out)
}

// sendLocked and closeLocked send on and close ch holding mu: a send
// after the close still panics, but the race detector sees them ordered
// (a send racing a close is a data race of the kernel's own under -race,
// which fails rt's test binary).
func sendLocked(mu *sync.Mutex, ch chan int, v int) {
	Lock(mu)
	defer Unlock(mu)
	Send(ch, v)
}

func closeLocked(mu *sync.Mutex, ch chan int) {
	Lock(mu)
	defer Unlock(mu)
	Close(ch)
}

// TestEarlyAfterFunc: an AfterFunc due soon may run before goroutines
// that could run while another waits (a loaded machine), as a timer's
// value may (earlyTime): the callback closes the channel before the
// worker sends, a crash on the timeout path, found and replayed; never on
// the unperturbed schedule. Before, the clock moved only when no
// goroutine could run, and the worker always sent first.
func TestEarlyAfterFunc(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	cfg := Config{Schedules: 300, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}
	var found *Result
	for _, r := range RunSchedules(t, cfg, afterFuncClose, nil) {
		if r.Outcome == "panic" {
			found = &r
			break
		}
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s: %s", r.Index, r.Outcome, r.Message)
		}
	}
	if found == nil {
		t.Fatal("no schedule ran the AfterFunc before the worker sent: the send on the closed channel was not found")
	}
	if !strings.Contains(found.Message, "send on closed channel") {
		t.Errorf("panic %q, want a send on a closed channel", found.Message)
	}
	sched := &Schedule{Seed: found.Seed, Decisions: found.Decisions}
	rs := RunSchedules(t, Config{Replay: sched, StepTimeout: 10 * time.Second}, afterFuncClose, nil)
	if len(rs) != 1 || rs[0].Outcome != "panic" || rs[0].Diverged != "" {
		t.Errorf("replay: %+v, want the panic as recorded", rs)
	}
	plain := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 10 * time.Second}, afterFuncClose, nil)
	if len(plain) != 1 || plain[0].Outcome != "pass" {
		t.Errorf("unperturbed: %+v, want a pass (no early timer)", plain)
	}
}
