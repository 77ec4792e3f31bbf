// Package sleepy is a kernel of a sleep-based flaky test: a queue drained
// by a background goroutine, and a test that sleeps "long enough" for the
// drain before it checks. On a loaded machine the drainer may not have run
// by then, and the test fails.
package sleepy

import "sync"

// Queue counts the items its drainer took.
type Queue struct {
	in   chan int
	mu   sync.Mutex
	done int
	last int
}

// New starts a queue of capacity n and its drainer.
func New(n int) *Queue {
	q := &Queue{in: make(chan int, n), last: -1}
	go q.drain()
	return q
}

func (q *Queue) drain() {
	for v := range q.in {
		q.mu.Lock()
		q.done++
		q.last = v
		q.mu.Unlock()
	}
}

// Put queues v.
func (q *Queue) Put(v int) { q.in <- v }

// Done is how many items the drainer took, and the last one.
func (q *Queue) Done() (int, int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.done, q.last
}

// Close stops the drainer.
func (q *Queue) Close() { close(q.in) }
