// Package oktaskqlocked: taskqlostupdate's submitted function with its
// read and write in one critical section.
package oktaskqlocked

import (
	"sync"
	"testing"

	"example.com/taskq"
)

type ledger struct {
	mu    sync.Mutex
	total int
}

func (l *ledger) add(v int) {
	l.mu.Lock()
	l.total += v
	l.mu.Unlock()
}

func TestCredit(t *testing.T) {
	p := taskq.New(1)
	defer p.Close()
	var l ledger
	p.Submit(func() { l.add(1) })
	l.add(10)
	p.Wait()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.total != 11 {
		t.Fatalf("total = %d, want 11", l.total)
	}
}
