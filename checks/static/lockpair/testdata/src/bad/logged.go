package bad

import (
	"sync"
	"testing"
)

// logged unlocks before t.Logf, which returns.
func logged(t *testing.T, mu *sync.Mutex, q []int) int {
	mu.Lock()
	if len(q) == 0 {
		mu.Unlock()
		t.Logf("empty")
	}
	mu.Unlock() // want `mu unlocked but not held`
	return 0
}
