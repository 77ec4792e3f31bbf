// Package okunlockreleasecas: the release is claimed with
// CompareAndSwap; one Unlock. Must not be reported.
package okunlockreleasecas

import (
	"sync"
	"sync/atomic"
	"testing"
)

type lease struct {
	mu       sync.Mutex
	released atomic.Bool
}

func acquire(l *lease) { l.mu.Lock() }

func (l *lease) release() {
	if l.released.CompareAndSwap(false, true) {
		l.mu.Unlock()
	}
}

func TestLease(t *testing.T) {
	l := &lease{}
	acquire(l)
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.release()
	}()
	l.release()
	<-done
	l.mu.Lock()
	l.mu.Unlock()
}
