// Package condnestedlock: a consumer waits on a Cond while holding an outer
// lock that serializes consumers; Wait releases only the Cond's lock, and the
// producer needs the outer lock before it can put and signal (nested monitor
// lockout). It happens only when the consumer finds the queue empty.
package condnestedlock

import (
	"sync"
	"testing"
)

type queue struct {
	outer sync.Mutex // serializes callers, keeps the stats consistent
	mu    sync.Mutex
	cond  *sync.Cond
	items []int
	calls int
}

func newQueue() *queue {
	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *queue) get() int {
	q.outer.Lock()
	defer q.outer.Unlock()
	q.calls++
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 {
		q.cond.Wait() // releases mu, not outer
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v
}

func (q *queue) put(v int) {
	q.outer.Lock()
	defer q.outer.Unlock()
	q.calls++
	q.mu.Lock()
	q.items = append(q.items, v)
	q.cond.Signal()
	q.mu.Unlock()
}

func TestGetPut(t *testing.T) {
	q := newQueue()
	got := make(chan int)
	go func() { got <- q.get() }()
	q.put(7)
	if v := <-got; v != 7 {
		t.Fatalf("get = %d", v)
	}
}
