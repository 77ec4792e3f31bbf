// Package cleanuporder: t.Cleanup functions run last registered first. The
// test registers the wait for its producer before the close of the channel
// the producer sends on, so the close runs first: a producer still
// sending then panics.
package cleanuporder

import (
	"sync"
	"testing"
)

func TestFirstEvent(t *testing.T) {
	events := make(chan int, 1)
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	t.Cleanup(func() { close(events) }) // runs before wg.Wait
	wg.Go(func() {
		for i := range 2 {
			events <- i // the second fits in the buffer
		}
	})
	if v := <-events; v != 0 {
		t.Fatalf("first event %d", v)
	}
}
