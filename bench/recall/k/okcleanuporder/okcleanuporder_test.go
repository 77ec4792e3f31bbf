// Package okcleanuporder: the close is registered first, so it runs after
// the wait for the producer. Must not be reported.
package okcleanuporder

import (
	"sync"
	"testing"
)

func TestFirstEvent(t *testing.T) {
	events := make(chan int, 1)
	var wg sync.WaitGroup
	t.Cleanup(func() { close(events) })
	t.Cleanup(wg.Wait) // runs before the close
	wg.Go(func() {
		for i := range 2 {
			events <- i
		}
	})
	if v := <-events; v != 0 {
		t.Fatalf("first event %d", v)
	}
}
