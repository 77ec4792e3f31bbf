package chanfifo

import (
	"testing"
	"time"
)

// Workers that finish at different times send their results on an
// unbuffered channel the test reads afterwards: the runtime queues blocked
// senders first in, first out, so the results come in the order the
// workers finished (ratelimit's TestInitial relies on it). A second
// apart: a goroutine slow to start gets real time up to the next timer.
func TestResultsInOrder(t *testing.T) {
	results := make(chan int)
	for _, d := range []int{3, 2, 1} {
		go func() {
			time.Sleep(time.Duration(d) * time.Second)
			results <- d
		}()
	}
	time.Sleep(5 * time.Second)
	for want := 1; want <= 3; want++ {
		if got := <-results; got != want {
			t.Fatalf("received %d, want %d (the worker that finished first)", got, want)
		}
	}
}

// The same for receivers: the one waiting longest gets the first value.
func TestWaitersInOrder(t *testing.T) {
	jobs, done := make(chan int), make(chan [2]int, 3)
	for _, d := range []int{3, 2, 1} {
		go func() {
			time.Sleep(time.Duration(d) * time.Second)
			done <- [2]int{d, <-jobs}
		}()
	}
	time.Sleep(5 * time.Second)
	for v := 1; v <= 3; v++ {
		jobs <- v
	}
	for i := 0; i < 3; i++ {
		if r := <-done; r[0] != r[1] {
			t.Fatalf("the waiter that came %d. got job %d", r[0], r[1])
		}
	}
}
