// Package oktaskqclosedrain: taskqclosedrop's runner with Close only
// closing the channel: the worker runs every queued job before it
// returns.
package oktaskqclosedrain

import "testing"

type future struct {
	done chan struct{}
	val  int
}

func (f *future) Wait() int { <-f.done; return f.val }

type job struct {
	fn  func() int
	fut *future
}

type Runner struct{ jobs chan job }

func NewRunner() *Runner {
	r := &Runner{jobs: make(chan job, 8)}
	go r.loop()
	return r
}

func (r *Runner) loop() {
	for j := range r.jobs {
		j.fut.val = j.fn()
		close(j.fut.done)
	}
}

func (r *Runner) Go(fn func() int) *future {
	f := &future{done: make(chan struct{})}
	r.jobs <- job{fn, f}
	return f
}

func (r *Runner) Close() { close(r.jobs) }

func TestCloseAfterFirst(t *testing.T) {
	r := NewRunner()
	a := r.Go(func() int { return 1 })
	b := r.Go(func() int { return 2 })
	if a.Wait() != 1 {
		t.Fatal("a")
	}
	r.Close()
	if b.Wait() != 2 {
		t.Fatal("b")
	}
}
