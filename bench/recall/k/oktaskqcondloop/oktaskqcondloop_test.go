// Package oktaskqcondloop: taskqlostsignal with the wait in a loop on its
// predicate.
package oktaskqcondloop

import (
	"sync"
	"testing"

	"example.com/taskq"
)

type result struct {
	mu   sync.Mutex
	cond *sync.Cond
	done bool
	val  int
}

func TestCompute(t *testing.T) {
	var q taskq.Queue
	defer q.Close()
	r := &result{}
	r.cond = sync.NewCond(&r.mu)
	q.Push(func() {
		r.mu.Lock()
		r.val, r.done = 42, true
		r.cond.Signal()
		r.mu.Unlock()
	})
	r.mu.Lock()
	for !r.done {
		r.cond.Wait()
	}
	v := r.val
	r.mu.Unlock()
	if v != 42 {
		t.Fatalf("val = %d", v)
	}
}
