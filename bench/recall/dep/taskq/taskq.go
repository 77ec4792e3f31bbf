// Package taskq is a dependency module of the recall kernels: a worker
// pool and a task queue whose goroutines, started by the package itself,
// run functions their caller submitted. The package is correct; the
// kernels' bugs are in the functions they submit.
package taskq

import "sync"

// Pool runs submitted functions on a fixed set of workers that New
// starts; the functions travel through a channel.
type Pool struct {
	tasks chan func()
	wg    sync.WaitGroup // counts submitted tasks not yet finished
}

// New starts a pool of n workers.
func New(n int) *Pool {
	p := &Pool{tasks: make(chan func(), 16)}
	for range n {
		go p.work()
	}
	return p
}

func (p *Pool) work() {
	for f := range p.tasks {
		f()
		p.wg.Done()
	}
}

// Submit queues f; one of the workers runs it.
func (p *Pool) Submit(f func()) {
	p.wg.Add(1)
	p.tasks <- f
}

// Wait returns when every task submitted so far has finished.
func (p *Pool) Wait() { p.wg.Wait() }

// Close stops the workers once the queued tasks have run.
func (p *Pool) Close() { close(p.tasks) }

// Queue runs submitted functions one at a time, in order, on one
// goroutine it starts on the first Push; the functions wait in a slice
// under a mutex.
type Queue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	pending []func()
	started bool
	closed  bool
}

// Push appends f to the queue.
func (q *Queue) Push(f func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if !q.started {
		q.started = true
		q.cond = sync.NewCond(&q.mu)
		go q.loop()
	}
	q.pending = append(q.pending, f)
	q.cond.Signal()
}

func (q *Queue) loop() {
	q.mu.Lock()
	for {
		for len(q.pending) == 0 && !q.closed {
			q.cond.Wait()
		}
		if len(q.pending) == 0 {
			q.mu.Unlock()
			return
		}
		f := q.pending[0]
		q.pending = q.pending[1:]
		q.mu.Unlock()
		f()
		q.mu.Lock()
	}
}

// Close lets the goroutine return once the queue is empty.
func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	if q.cond != nil {
		q.cond.Signal()
	}
}
