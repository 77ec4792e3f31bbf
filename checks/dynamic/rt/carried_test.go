package rt

import (
	"sync"
	"testing"
	"time"
)

// expiring plays cache2go's table, kept by name across tests: Add arms a
// cleanup timer only when none is pending sooner, and the cleanup expires
// what is due and re-arms for the next.
type expiring struct {
	mu       sync.Mutex
	expires  map[string]time.Time
	interval time.Duration // of the pending cleanup timer, 0 for none
}

func (e *expiring) add(key string, life time.Duration) {
	Lock(&e.mu)
	e.expires[key] = Now().Add(life)
	armed := e.interval
	Unlock(&e.mu)
	if armed == 0 || life < armed {
		e.cleanup()
	}
}

func (e *expiring) cleanup() {
	Lock(&e.mu)
	defer Unlock(&e.mu)
	now := Now()
	var next time.Duration
	for k, at := range e.expires {
		if left := at.Sub(now); left <= 0 {
			delete(e.expires, k)
		} else if next == 0 || left < next {
			next = left
		}
	}
	e.interval = next
	if next > 0 {
		AfterFunc(next, func() { e.cleanup() })
	}
}

func (e *expiring) has(key string) bool {
	Lock(&e.mu)
	defer Unlock(&e.mu)
	_, ok := e.expires[key]
	return ok
}

// TestCarriedAfterFunc: an AfterFunc timer still pending when a schedule
// ends fires in the next schedule of the process at the time it had left,
// as its real timer does under go test -count: the items of the second
// schedule, which arm no timer of their own, expire. Once the test has
// returned (a goroutine it left blocked waits), a carried timer does not
// fire.
func TestCarriedAfterFunc(t *testing.T) {
	e := &expiring{expires: map[string]time.Time{}}
	body := func() {
		e.add("a", 400*time.Millisecond)
		e.add("b", 200*time.Millisecond)
		Sleep(100 * time.Millisecond)
		if !e.has("a") {
			t.Error("a expired after 100ms of its 400ms")
		}
		Sleep(150 * time.Millisecond)
		if e.has("b") {
			t.Errorf("b is there after 250ms of its 200ms")
		}
	}
	for i := 0; i < 3; i++ {
		if r := RunFunc(Config{Seed: 1}, i, body); r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s %s", i, r.Outcome, r.Message)
		}
	}

	// Left after the test: it waits for the next test's clock.
	fired := make(chan struct{}, 1)
	RunFunc(Config{Seed: 1}, 0, func() {
		AfterFunc(time.Hour, func() { fired <- struct{}{} })
	})
	r := RunFunc(Config{Seed: 1}, 1, func() {
		never := make(chan int)
		Go(func() { Recv(never) })
	})
	select {
	case <-fired:
		t.Errorf("a timer left pending fired after the next test had returned (%s)", r.Outcome)
	default:
	}
	RunFunc(Config{Seed: 1}, 2, func() { Sleep(2 * time.Hour) })
	select {
	case <-fired:
	default:
		t.Error("a timer left pending did not fire in a later test that ran past it")
	}
}
