// Package dclflagfirst: double-checked initialization whose atomic ready
// flag is stored before the table it guards is made. A caller that sees
// the flag skips the lock and reads the table pointer unsynchronized,
// nil if the initializer has not stored it yet.
package dclflagfirst

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
		r.ready.Store(true) // published before the table exists
		r.tab = &table{names: map[string]int{}}
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
