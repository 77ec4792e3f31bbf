// Package timerpolldrain: timers before Go 1.23 (this test file asks for
// them with a //go:debug line, as does any module whose go line is older
// than 1.23). A worker times each job with one timer: it polls the timer
// after the job (a select with a default: was the job slow?) and, before
// the next job, stops it with the drain idiom if !t.Stop() { <-t.C }. When
// the timer fires while the worker runs on from the job to its poll (a
// loaded machine's delay), the poll takes the value; the next Stop reports
// the timer expired and the drain waits for a value that never comes.

//go:debug asynctimerchan=1

package timerpolldrain

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
	for job := range w.jobs {
		if !t.Stop() {
			<-t.C // expired: drain it before the Reset
		}
		t.Reset(w.slowAfter)
		job()
		slow := false
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
