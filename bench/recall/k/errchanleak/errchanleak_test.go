// Package errchanleak: the collector returns at the first error and leaves
// the other workers blocked sending on the unbuffered error channel.
package errchanleak

import (
	"fmt"
	"sync/atomic"
	"testing"
)

func fetchAll(warm *atomic.Bool, n int) error {
	errc := make(chan error) // should have capacity n
	for i := range n {
		go func() {
			if !warm.Load() {
				errc <- fmt.Errorf("shard %d is cold", i)
				return
			}
			errc <- nil
		}()
	}
	warm.Store(true)
	for range n {
		if err := <-errc; err != nil {
			return err // the remaining senders leak
		}
	}
	return nil
}

func TestFetchAll(t *testing.T) {
	var warm atomic.Bool
	if err := fetchAll(&warm, 2); err != nil {
		t.Log("retrying later:", err)
	}
}
