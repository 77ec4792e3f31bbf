// Package callerslocked: a helper whose callers all hold the lock, a
// fooLocked helper, and one documented as needing the lock are silent;
// a helper called without the lock from a goroutine is not.
package callerslocked

import (
	"sync"
	"time"
)

type Queue struct {
	// mu guards the following fields.
	mu    sync.Mutex
	items []int
	head  int
}

func NewQueue() *Queue {
	q := &Queue{}
	go q.drain()
	go q.janitor()
	return q
}

// janitor forgets the lock.
func (q *Queue) janitor() {
	for range time.Tick(time.Minute) {
		q.items = nil // want `field q.items written without holding q.mu.*janitor runs on the goroutine started by the go statement`
	}
}

func (q *Queue) Push(x int) {
	q.mu.Lock()
	q.push(x)
	q.mu.Unlock()
}

func (q *Queue) PushAll(xs []int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, x := range xs {
		q.push(x)
	}
}

// push: every caller holds q.mu.
func (q *Queue) push(x int) {
	q.items = append(q.items, x) // ok: callers hold the lock
}

func (q *Queue) popLocked() int {
	x := q.items[q.head] // ok: named Locked
	q.head++             // ok
	return x
}

// advance must be called with q.mu held.
func (q *Queue) advance() {
	q.head++ // ok: documented
}

func (q *Queue) drain() {
	for {
		q.mu.Lock()
		if q.head < len(q.items) {
			q.popLocked()
			q.advance()
		}
		q.mu.Unlock()
		q.compact()
	}
}

// compact is called only from the goroutine, without the lock; a helper
// is not a place the default rule reports (its callers may hold the lock
// in ways the pass cannot follow): IL1006.
func (q *Queue) compact() {
	q.items = q.items[q.head:] // want `field q.items read without holding q.mu.*\(no goroutine evidence\)`
}

func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.items) - q.head
}
