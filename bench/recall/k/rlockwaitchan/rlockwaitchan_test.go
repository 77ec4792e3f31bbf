// Package rlockwaitchan: a reader waits for a notification while holding
// the read lock; the notifier must take the write lock first.
package rlockwaitchan

import (
	"sync"
	"testing"
)

type table struct {
	mu      sync.RWMutex
	version int
	changed chan int
}

func (t *table) awaitChange() int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return <-t.changed // waits with the read lock held
}

func (t *table) bump() {
	t.mu.Lock()
	t.version++
	v := t.version
	t.mu.Unlock()
	t.changed <- v
}

func TestBump(t *testing.T) {
	tb := &table{changed: make(chan int)}
	got := make(chan int, 1)
	go func() { got <- tb.awaitChange() }()
	tb.bump()
	if v := <-got; v != 1 {
		t.Fatalf("version %d", v)
	}
}
