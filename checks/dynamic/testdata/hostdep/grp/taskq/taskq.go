// Package taskq plays a task queue: New starts a worker that runs, one
// at a time, the functions Submit appends to a slice under a mutex. The
// caller's functions run on the package's goroutine, and nothing of the
// package starts a goroutine with a function its caller passed.
package taskq

import "sync"

// Queue runs submitted functions in order on its worker.
type Queue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending []func()
	running int // submitted and not yet finished
	closed  bool
}

// New starts the worker.
func New() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(&q.mu)
	go q.work()
	return q
}

func (q *Queue) work() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		for len(q.pending) == 0 && !q.closed {
			q.cond.Wait()
		}
		if len(q.pending) == 0 {
			return
		}
		f := q.pending[0]
		q.pending = q.pending[1:]
		q.mu.Unlock()
		f()
		q.mu.Lock()
		q.running--
		q.cond.Broadcast()
	}
}

// Submit queues f.
func (q *Queue) Submit(f func()) {
	q.mu.Lock()
	q.pending = append(q.pending, f)
	q.running++
	q.mu.Unlock()
	q.cond.Broadcast()
}

// Wait returns when every submitted function has finished.
func (q *Queue) Wait() {
	q.mu.Lock()
	for q.running > 0 {
		q.cond.Wait()
	}
	q.mu.Unlock()
}

// Close lets the worker return once the queue is empty.
func (q *Queue) Close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.cond.Broadcast()
}
