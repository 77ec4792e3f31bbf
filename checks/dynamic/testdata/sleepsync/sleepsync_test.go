package sleepsync

import (
	"sync"
	"testing"
	"time"
)

// TestSharedLoad starts two callers of one key, sleeps so that both
// join the one load, then releases it once. A caller delayed past the
// sleep starts a second load that nobody releases: the test hangs.
func TestSharedLoad(t *testing.T) {
	var l Loads
	release := make(chan int)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Get("k", func() int { return <-release })
		}()
	}
	time.Sleep(50 * time.Millisecond) // wait for both callers to join the load
	release <- 1
	wg.Wait()
}

// TestTransfers runs two transfers in opposite directions and sleeps
// while they run, as a test of progress would.
func TestTransfers(t *testing.T) {
	a, b := &Account{balance: 10}, &Account{balance: 10}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Transfer(a, b, 1) }()
	go func() { defer wg.Done(); Transfer(b, a, 2) }()
	time.Sleep(10 * time.Millisecond)
	wg.Wait()
}
