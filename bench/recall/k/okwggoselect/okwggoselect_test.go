// Package okwggoselect: each backend's send is a case beside <-done. Must
// not be reported.
package okwggoselect

import (
	"sync"
	"testing"
	"time"
)

func first(backends []func() int) int {
	out := make(chan int)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, b := range backends {
		wg.Go(func() {
			v := b()
			select {
			case <-done:
			case out <- v:
			}
		})
	}
	v := <-out
	close(done)
	wg.Wait()
	return v
}

func TestFirst(t *testing.T) {
	fast := func() int { return 1 }
	slow := func() int { time.Sleep(10 * time.Millisecond); return 2 }
	if v := first([]func() int{fast, slow}); v != 1 && v != 2 {
		t.Fatalf("v = %d", v)
	}
}
