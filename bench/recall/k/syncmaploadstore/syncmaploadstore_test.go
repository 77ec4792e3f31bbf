// Package syncmaploadstore: Load then Store on a sync.Map is two
// operations; two callers both miss and both build the value.
package syncmaploadstore

import (
	"sync"
	"sync/atomic"
	"testing"
)

type registry struct {
	m      sync.Map
	builds atomic.Int32
}

func (r *registry) get(k string) *string {
	if v, ok := r.m.Load(k); ok {
		return v.(*string)
	}
	r.builds.Add(1)
	v := new(string)
	*v = "built:" + k
	r.m.Store(k, v) // should be LoadOrStore
	return v
}

func TestGet(t *testing.T) {
	r := &registry{}
	got := make(chan *string, 2)
	for range 2 {
		go func() { got <- r.get("a") }()
	}
	if a, b := <-got, <-got; a != b {
		t.Fatalf("two instances built (%d builds)", r.builds.Load())
	}
}
