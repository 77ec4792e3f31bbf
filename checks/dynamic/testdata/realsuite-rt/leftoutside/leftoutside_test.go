package leftoutside

import (
	"sync"
	"testing"

	"dep"
)

// A goroutine holding a lock waits in a dependency for a value nobody
// sends, and another waits for the lock. The test returns and leaves both
// behind, which go test does not report: a leak of the test's own, not a
// hang (ratelimit's takers sleeping on a mock clock nobody moves).
func TestLeftBehindOutside(t *testing.T) {
	var mu sync.Mutex
	never := make(chan int)
	locked := make(chan struct{})
	go func() {
		mu.Lock()
		close(locked)
		dep.Recv(never)
		mu.Unlock()
	}()
	<-locked
	go func() {
		mu.Lock()
		mu.Unlock()
	}()
}
