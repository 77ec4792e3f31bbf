// Package oktimernodrain: since Go 1.23 Stop guarantees no stale value, so
// no drain is needed after it. Must not be reported.
package oktimernodrain

import (
	"testing"
	"time"
)

func await(results <-chan int, timeout time.Duration) (int, bool) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case v := <-results:
		return v, true
	case <-t.C:
		return 0, false
	}
}

func TestAwait(t *testing.T) {
	results := make(chan int, 1)
	go func() { results <- 7 }()
	if v, ok := await(results, 50*time.Millisecond); ok && v != 7 {
		t.Fatalf("got %d", v)
	}
}
