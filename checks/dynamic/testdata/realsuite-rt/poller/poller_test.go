package poller

import (
	"sync"
	"testing"
	"time"

	"dep"
)

// A callback goroutine sends on an unbuffered channel whose only receiver
// is a condition polled with a select with default on a goroutine of
// dep.Eventually (as ttlcache's tests do with testify's Eventually): the
// controlled sender must be where the poller can find it.
func TestSendToPoller(t *testing.T) {
	checkCh := make(chan struct{})
	var mu sync.Mutex
	calls := 0
	go func() {
		mu.Lock()
		calls++
		mu.Unlock()
		checkCh <- struct{}{}
	}()
	if !dep.Eventually(func() bool {
		select {
		case <-checkCh:
			return true
		default:
			return false
		}
	}, 5*time.Second, 10*time.Millisecond) {
		t.Fatal("the callback never ran")
	}
	mu.Lock()
	defer mu.Unlock()
	if calls != 1 {
		t.Fatalf("calls = %d", calls)
	}
}
