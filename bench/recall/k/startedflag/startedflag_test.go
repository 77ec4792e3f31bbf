// Package startedflag: start guards a one-time initialization with an
// atomic flag that is loaded and then stored, so two callers both run it.
package startedflag

import (
	"sync"
	"sync/atomic"
	"testing"
)

type engine struct {
	started atomic.Bool
	inits   atomic.Int32
}

func (e *engine) start() {
	if !e.started.Load() {
		e.started.Store(true) // should be CompareAndSwap(false, true)
		e.inits.Add(1)
	}
}

func TestStart(t *testing.T) {
	e := &engine{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); e.start() }()
	go func() { defer wg.Done(); e.start() }()
	wg.Wait()
	if n := e.inits.Load(); n != 1 {
		t.Fatalf("initialized %d times", n)
	}
}
