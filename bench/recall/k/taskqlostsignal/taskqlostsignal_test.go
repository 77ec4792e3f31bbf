// Package taskqlostsignal: the function a task queue's goroutine runs
// signals its completion on a sync.Cond, and the test waits on it without
// checking whether the work is already done: a Signal that comes first is
// lost and the test waits forever.
package taskqlostsignal

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
	r.cond.Wait() // should be: for !r.done { r.cond.Wait() }
	v := r.val
	r.mu.Unlock()
	if v != 42 {
		t.Fatalf("val = %d", v)
	}
}
