// Package oktimerpolldrain: timers before Go 1.23 (the //go:debug line).
// The worker of timerpolldrain, but its drain before the next job skips a
// value its poll took already (if !t.Stop() && !slow { <-t.C }): a timer
// that fires while the worker runs on to its poll is drained once. Must
// not be reported.

//go:debug asynctimerchan=1

package oktimerpolldrain

import (
	"testing"
	"time"
)

type result struct {
	id   int
	slow bool
}

type worker struct {
	jobs      chan func()
	results   chan result
	slowAfter time.Duration
}

func (w *worker) run() {
	t := time.NewTimer(w.slowAfter)
	id := 0
	slow := false // the last poll took the timer's value
	for job := range w.jobs {
		if !t.Stop() && !slow {
			<-t.C // expired, its value not taken: drain it before the Reset
		}
		t.Reset(w.slowAfter)
		job()
		slow = false
		select {
		case <-t.C:
			slow = true
		default:
		}
		w.results <- result{id, slow}
		id++
	}
	close(w.results)
}

func TestJobs(t *testing.T) {
	w := &worker{jobs: make(chan func()), results: make(chan result), slowAfter: 100 * time.Millisecond}
	go w.run()
	sum := 0
	for i := range 3 {
		w.jobs <- func() { sum += i }
		if r := <-w.results; r.id != i {
			t.Fatalf("result %d for job %d", r.id, i)
		}
	}
	close(w.jobs)
	<-w.results // closed
	if sum != 3 {
		t.Fatalf("sum %d, want 3", sum)
	}
}
