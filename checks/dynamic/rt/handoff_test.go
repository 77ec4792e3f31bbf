package rt

import (
	"sync"
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
