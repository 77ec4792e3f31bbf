// Package oksyncmapvaluelocked: the counters a sync.Map hands out are
// atomic. Must not be reported.
package oksyncmapvaluelocked

import (
	"sync"
	"sync/atomic"
	"testing"
)

type hits struct{ m sync.Map }

func (h *hits) hit(path string) {
	v, _ := h.m.LoadOrStore(path, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

func (h *hits) get(path string) int64 {
	v, ok := h.m.Load(path)
	if !ok {
		return 0
	}
	return v.(*atomic.Int64).Load()
}

func TestHits(t *testing.T) {
	var h hits
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() { h.hit("/") })
	}
	wg.Wait()
	if n := h.get("/"); n != 2 {
		t.Fatalf("hits = %d", n)
	}
}
