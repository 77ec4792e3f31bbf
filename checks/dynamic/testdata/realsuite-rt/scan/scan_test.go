// Package scan: a concurrent table presized for many entries, whose Stats
// reads every slot once with an atomic load. A long finite scan over
// different words is progress, not a livelock.
package scan

import (
	"sync"
	"sync/atomic"
	"testing"
)

type table struct {
	slots []atomic.Pointer[int]
}

func newTable(n int) *table { return &table{slots: make([]atomic.Pointer[int], n)} }

func (t *table) put(i int, v *int) { t.slots[i%len(t.slots)].Store(v) }

// stats counts the slots in use, one atomic load per slot.
func (t *table) stats() (used, capacity int) {
	for i := range t.slots {
		if t.slots[i].Load() != nil {
			used++
		}
	}
	return used, len(t.slots)
}

func TestStatsOverPresizedTable(t *testing.T) {
	tb := newTable(16000) // more loads in a row than the livelock bound
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			v := w
			tb.put(w, &v)
		}(w)
	}
	wg.Wait()
	if used, capacity := tb.stats(); used != 2 || capacity != 16000 {
		t.Fatalf("stats: %d used of %d", used, capacity)
	}
}
