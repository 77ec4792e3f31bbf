package exit

import (
	"os"
	"sync"
	"testing"
)

// TestExits calls os.Exit in the middle of the test: the process ends
// without a word from the testing package.
func TestExits(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
	}()
	wg.Wait()
	os.Exit(3)
}
