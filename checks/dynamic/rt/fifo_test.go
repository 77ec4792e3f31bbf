package rt

import (
	"sync"
	"testing"
	"time"
)

// TestPlainPairsFirstQueued: two senders parked on one unbuffered channel
// at the same virtual time; the unperturbed schedule pairs the receive
// with the one that queued first, as the runtime's FIFO queue does, not
// with the one made first. ratelimit's TestInitial: its three takers send
// their times on one channel and the test reads them in that order; on go
// test it passes, and its unperturbed schedule paired the second sender
// first and failed.
func TestPlainPairsFirstQueued(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		res := make(chan string)
		WaitGroupAdd(&wg, 2)
		Go(func() { // a: made first, queues second
			WaitGroupDone(&wg)
			Lock(&mu)
			Unlock(&mu)
			Send(res, "a")
		})
		Go(func() { // b: the newest runs first and queues first
			WaitGroupDone(&wg)
			Send(res, "b")
		})
		WaitGroupWait(&wg)
		if first, second := Recv(res), Recv(res); first != "b" || second != "a" {
			t.Errorf("received %q then %q, want \"b\" (queued first) then \"a\"", first, second)
		}
	}, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("want the unperturbed schedule to pass, got %+v", rs)
	}
}

// TestSearchPairsEitherQueued: the search may pair either sender, as a
// real run may (the first can be delayed before its send): some schedule
// receives "a" first.
func TestSearchPairsEitherQueued(t *testing.T) {
	seen := map[string]bool{}
	RunSchedules(t, Config{Schedules: 200, Seed: 1, Strategy: StratRandom, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		res := make(chan string)
		WaitGroupAdd(&wg, 2)
		Go(func() {
			WaitGroupDone(&wg)
			Lock(&mu)
			Unlock(&mu)
			Send(res, "a")
		})
		Go(func() {
			WaitGroupDone(&wg)
			Send(res, "b")
		})
		WaitGroupWait(&wg)
		first := Recv(res)
		Recv(res)
		seen[first] = true
	}, nil)
	if !seen["a"] || !seen["b"] {
		t.Errorf("first received over 200 random schedules: %v, want both", seen)
	}
}
