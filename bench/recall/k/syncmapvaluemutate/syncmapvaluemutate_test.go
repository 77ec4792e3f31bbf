// Package syncmapvaluemutate: per-key counters live in a sync.Map; the map
// is safe, the *counter it hands out is not, and two goroutines increment
// the same one.
package syncmapvaluemutate

import (
	"sync"
	"testing"
)

type counter struct{ n int }

type hits struct{ m sync.Map }

func (h *hits) hit(path string) {
	v, _ := h.m.LoadOrStore(path, &counter{})
	v.(*counter).n++
}

func (h *hits) get(path string) int {
	v, ok := h.m.Load(path)
	if !ok {
		return 0
	}
	return v.(*counter).n
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
