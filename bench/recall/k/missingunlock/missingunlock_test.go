// Package missingunlock: push returns early on a closed queue without
// unlocking.
package missingunlock

import (
	"errors"
	"sync"
	"testing"
)

var errClosed = errors.New("queue closed")

type queue struct {
	mu     sync.Mutex
	items  []int
	closed bool
}

func (q *queue) push(v int) error {
	q.mu.Lock()
	if q.closed {
		return errClosed // returns with q.mu held
	}
	q.items = append(q.items, v)
	q.mu.Unlock()
	return nil
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
}

func (q *queue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items)
}

func TestPushClose(t *testing.T) {
	q := &queue{}
	done := make(chan struct{})
	go func() { q.close(); close(done) }()
	for i := range 2 {
		_ = q.push(i)
	}
	<-done
	if n := q.len(); n > 2 {
		t.Fatalf("%d items", n)
	}
}
