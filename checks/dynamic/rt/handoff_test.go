package rt

import (
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestPlainSenderRunsOn: on the unperturbed schedule, a send to a
// goroutine already parked at its receive lets the sender run on, as the
// runtime does (it wakes the receiver and returns). A test that sends
// "fail" and then feeds the value the receiver's handling reads (suture's
// TestFailures and its NowFeeder) passes under go test; its unperturbed
// schedule must pass too.
func TestPlainSenderRunsOn(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var mu sync.Mutex
		var fed []int
		ready, take, done := make(chan bool), make(chan bool), make(chan int)
		Go(func() {
			Send(ready, true)
			Recv(take)
			Lock(&mu)
			n := len(fed)
			Unlock(&mu)
			Send(done, n)
		})
		Recv(ready)
		Send(take, true) // the receiver is parked: the sender runs on
		Lock(&mu)
		fed = append(fed, 1)
		Unlock(&mu)
		if n := Recv(done); n != 1 {
			t.Errorf("the receiver ran before the sender went on: it saw %d values", n)
		}
	}, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("want the unperturbed schedule to pass, got %+v", rs)
	}
}

// TestPlainReceiverRunsOn: the other way round, a receive from a sender
// already parked lets the receiver run on.
func TestPlainReceiverRunsOn(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var mu sync.Mutex
		var fed []int
		ready, give, done := make(chan bool), make(chan bool), make(chan int)
		Go(func() {
			Send(ready, true)
			Send(give, true)
			Lock(&mu)
			n := len(fed)
			Unlock(&mu)
			Send(done, n)
		})
		Recv(ready)
		k := Select(false, RecvCase(give)) // the sender is parked: the receiver runs on
		<-PickRecv(k, 0, give)
		Lock(&mu)
		fed = append(fed, 1)
		Unlock(&mu)
		if n := Recv(done); n != 1 {
			t.Errorf("the sender ran before the receiver went on: it saw %d values", n)
		}
	}, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("want the unperturbed schedule to pass, got %+v", rs)
	}
}

// TestHandoffPartiesTakeTurns: the two parties of a hand-off go on one
// after the other, the one that runs on first, up to its next scheduling
// point. What they do in between in code the rewriter does not see (here
// a plain atomic flag; a context's cancel and Err in a real test) then
// happens in an order the decisions fix, and a schedule replays. When both
// went on at once, the receiver read the flag while the sender was still
// yielding before it set it.
func TestHandoffPartiesTakeTurns(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 5, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var flag atomic.Int32
		ready, take, done := make(chan bool), make(chan bool), make(chan int32)
		Go(func() {
			Send(ready, true)
			Recv(take)
			Send(done, flag.Load()) // runs only once the sender reached Recv(done)
		})
		Recv(ready)
		Send(take, true) // the receiver is parked: the sender runs on
		for i := 0; i < 100; i++ {
			runtime.Gosched() // room for a receiver running at the same time
		}
		flag.Store(1)
		if v := Recv(done); v != 1 {
			t.Errorf("the receiver went on while the sender did: it read the flag as %d", v)
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: want pass, got %s: %s", r.Index, r.Outcome, r.Message)
		}
	}
	if len(rs) != 5 {
		t.Fatalf("want 5 schedules, got %d", len(rs))
	}
}

// TestGateOpenBeforeSeen: the second party of a hand-off is released for
// its channel operation and, once the first party arrived or was found
// blocked outside control, woken again to go on (its gate). On a loaded
// machine both wakes can come before it looks (its partner, waiting for
// it in the real channel operation, was found blocked outside control):
// the gate is open then. Waiting for it hung the schedule until the
// watchdog called it a hang, a "fatal" finding no replay reproduced.
func TestGateOpenBeforeSeen(t *testing.T) {
	g := &gstate{}
	g.rep = reply{mode: mRun, gate: true}
	g.wake() // released for its channel operation
	g.wake() // its gate opened, before it looked
	var gid atomic.Uint64
	passed := make(chan struct{})
	go func() {
		gid.Store(goid())
		g.call(&request{op: opSend})
		g.pass() // after the real operation, as Send does
		close(passed)
	}()
	for {
		select {
		case <-passed:
			return
		default:
		}
		if id := gid.Load(); id != 0 {
			buf := make([]byte, 1<<20)
			dump := string(buf[:runtime.Stack(buf, true)])
			if state, _, stack := goroutineAt(dump, id); state == "semacquire" && strings.Contains(stack, "waitTurn") {
				g.wake() // let it end
				<-passed
				t.Fatal("the second party of a hand-off waits for a gate that was opened before it looked")
			}
		}
		runtime.Gosched()
	}
}
