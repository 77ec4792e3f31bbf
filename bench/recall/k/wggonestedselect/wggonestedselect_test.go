// Package wggonestedselect: hedged requests, one goroutine per backend
// started with WaitGroup.Go; the first answer wins. A backend checks done
// in a select and sends from its default branch: one that passed the
// check before done was closed blocks on the send, and the caller's Wait
// never returns.
package wggonestedselect

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
			default:
				out <- v // should be a case beside <-done
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
