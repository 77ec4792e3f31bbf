// Package okdclflaglast: double-checked initialization that stores the
// ready flag after the table is made. Must not be reported.
package okdclflaglast

import (
	"sync"
	"sync/atomic"
	"testing"
)

type table struct {
	mu    sync.Mutex
	names map[string]int
}

type registry struct {
	ready atomic.Bool
	mu    sync.Mutex
	tab   *table
}

func (r *registry) table() *table {
	if r.ready.Load() {
		return r.tab
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ready.Load() {
		r.tab = &table{names: map[string]int{}}
		r.ready.Store(true) // published after the table is made
	}
	return r.tab
}

func (r *registry) add(name string) {
	t := r.table()
	t.mu.Lock()
	t.names[name]++
	t.mu.Unlock()
}

func TestAdd(t *testing.T) {
	var r registry
	var wg sync.WaitGroup
	wg.Go(func() { r.add("a") })
	r.add("b")
	wg.Wait()
	if n := len(r.table().names); n != 2 {
		t.Fatalf("%d names", n)
	}
}
