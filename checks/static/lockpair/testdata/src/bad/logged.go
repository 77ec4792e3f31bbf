package bad

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
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

// acceptChecked asserts on a different error: the loop goes round again
// with mu held when next fails and check does not.
func acceptChecked(t *testing.T, mu *sync.Mutex, next, check func() error) {
	for {
		err := next()
		if err != nil {
			mu.Lock() // want `mu locked while already locked`
			defer mu.Unlock()
			require.NoError(t, check())
		}
	}
}
