// Package taskqlostupdate: a function submitted to a worker pool (a
// dependency's goroutine runs it) reads a total and writes it back in two
// critical sections; the test's own addition between them is lost.
package taskqlostupdate

import (
	"sync"
	"testing"

	"example.com/taskq"
)

type ledger struct {
	mu    sync.Mutex
	total int
}

func (l *ledger) get() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.total
}

func (l *ledger) set(v int) {
	l.mu.Lock()
	l.total = v
	l.mu.Unlock()
}

func TestCredit(t *testing.T) {
	p := taskq.New(1)
	defer p.Close()
	var l ledger
	p.Submit(func() {
		n := l.get()
		l.set(n + 1) // should be one critical section
	})
	l.mu.Lock()
	l.total += 10
	l.mu.Unlock()
	p.Wait()
	if got := l.get(); got != 11 {
		t.Fatalf("total = %d, want 11", got)
	}
}
