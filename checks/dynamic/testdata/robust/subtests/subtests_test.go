package subtests

import (
	"sync"
	"testing"
)

// transfer locks from then to: two opposite transfers can deadlock.
func transfer(from, to *sync.Mutex) {
	from.Lock()
	to.Lock()
	to.Unlock()
	from.Unlock()
}

// TestSubtests has a clean subtest, a nested one and, last, a subtest with a
// lock-order deadlock that the search must find inside the subtest.
func TestSubtests(t *testing.T) {
	var total int
	var mu sync.Mutex
	t.Run("clean", func(t *testing.T) {
		var wg sync.WaitGroup
		for i := 0; i < 2; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				mu.Lock()
				total++
				mu.Unlock()
			}()
		}
		wg.Wait()
		t.Run("nested", func(t *testing.T) {
			mu.Lock()
			defer mu.Unlock()
			if total != 2 {
				t.Errorf("total = %d, want 2", total)
			}
		})
	})
	t.Run("opposite transfers", func(t *testing.T) {
		var a, b sync.Mutex
		done := make(chan bool)
		go func() {
			transfer(&a, &b)
			done <- true
		}()
		transfer(&b, &a)
		<-done
	})
}
