// Package sliceptrescape: register returns a pointer into the registry's
// slice; every later access goes through the lock, but an append by
// another register moves the slice, and the increment lands in the old
// array.
package sliceptrescape

import (
	"sync"
	"testing"
)

type worker struct {
	name string
	jobs int
}

type registry struct {
	mu      sync.Mutex
	workers []worker
}

func (r *registry) register(name string) *worker {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.workers = append(r.workers, worker{name: name})
	return &r.workers[len(r.workers)-1]
}

func (r *registry) done(w *worker) {
	r.mu.Lock()
	w.jobs++ // w may point into an array the slice left
	r.mu.Unlock()
}

func (r *registry) total() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, w := range r.workers {
		n += w.jobs
	}
	return n
}

func TestJobs(t *testing.T) {
	var r registry
	done := make(chan struct{})
	go func() { r.register("b"); close(done) }()
	w := r.register("a")
	r.done(w)
	<-done
	if n := r.total(); n != 1 {
		t.Fatalf("total jobs %d", n)
	}
}
