package farjump

import (
	"testing"
	"time"
)

// TestFlushWatched flushes a one-minute reader under a watchdog of its
// own, which flags (without synchronization: the test's race) a flush
// slower than thirty seconds.
func TestFlushWatched(t *testing.T) {
	slow := false
	stop := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-time.After(30 * time.Second):
			slow = true
		case <-stop:
		}
	}()
	r := New(time.Minute)
	if n := r.Flush(); n < 1 {
		t.Fatalf("Flush: %d collections, want at least 1", n)
	}
	if slow {
		t.Log("the flush took more than thirty seconds")
	}
	close(stop)
	<-watched
	r.Close()
}
