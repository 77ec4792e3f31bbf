package toolalloc

import (
	"runtime"
	"sync"
	"testing"

	"toolalloc/measure"
)

// equal fails t as testify's assert.Equal does: its message names no
// allocations, only the two values.
func equal(t *testing.T, want, got any) {
	t.Helper()
	if want != got {
		t.Errorf("\n\tError:      \tNot equal: \n\t            \texpected: %v\n\t            \tactual  : %v", want, got)
	}
}

// TestLockedCounterEqual counts through a helper package and asserts
// with a testify-style equal: no allocation named in the failure.
func TestLockedCounterEqual(t *testing.T) {
	var mu sync.Mutex
	n := 0
	equal(t, 0.0, measure.Allocs(func() {
		mu.Lock()
		n++
		mu.Unlock()
	}))
}

// TestLockedCounterMemStats counts Mallocs between two ReadMemStats
// calls, the least of five runs (the runtime may allocate now and then),
// and says only the number when it is not 0.
func TestLockedCounterMemStats(t *testing.T) {
	var mu sync.Mutex
	n := 0
	least := ^uint64(0)
	for i := 0; i < 5; i++ {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		mu.Lock()
		n++
		mu.Unlock()
		runtime.ReadMemStats(&ms)
		least = min(least, ms.Mallocs-before)
	}
	if least != 0 {
		t.Errorf("locked increment: got %d, want 0", least)
	}
}

// TestLostUpdateCounted counts allocations (none, and it passes) and
// loses an update between two locked sections: a true failure of a test
// that counts allocations, the code's.
func TestLostUpdateCounted(t *testing.T) {
	var mu sync.Mutex
	n := 0
	equal(t, 0.0, measure.Allocs(func() { n += 0 }))
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			v := n
			mu.Unlock()
			mu.Lock()
			n = v + 1
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Errorf("n = %d after two increments, want 2", n)
	}
}
