package twice

import (
	"sync"
	"testing"
)

// TestDefaultPool releases the package's default pool: the bug for a
// second run in the same process.
func TestDefaultPool(t *testing.T) {
	defer Release()
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		_ = Submit(func() { wg.Done() })
	}
	wg.Wait()
}
