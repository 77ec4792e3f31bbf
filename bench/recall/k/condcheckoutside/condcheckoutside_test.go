// Package condcheckoutside: the waiter checks the condition before it takes
// the lock; the broadcast can fall between the check and the Wait.
package condcheckoutside

import (
	"sync"
	"sync/atomic"
	"testing"
)

type flag struct {
	mu   sync.Mutex
	cond *sync.Cond
	set  atomic.Bool
}

func (f *flag) wait() {
	if f.set.Load() {
		return
	}
	// The broadcast may happen here.
	f.mu.Lock()
	f.cond.Wait()
	f.mu.Unlock()
}

func (f *flag) raise() {
	f.set.Store(true)
	f.mu.Lock()
	f.cond.Broadcast()
	f.mu.Unlock()
}

func TestRaise(t *testing.T) {
	f := &flag{}
	f.cond = sync.NewCond(&f.mu)
	done := make(chan struct{})
	go func() { f.wait(); close(done) }()
	f.raise()
	<-done
}
