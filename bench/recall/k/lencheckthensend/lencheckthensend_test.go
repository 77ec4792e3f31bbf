// Package lencheckthensend: an offer that must never block checks
// len(ch) < cap(ch) and then sends. Two producers can both see room for
// one: the second blocks on the full channel for ever.
package lencheckthensend

import (
	"sync"
	"testing"
)

type mailbox struct{ ch chan int }

// offer delivers v if there is room and reports whether it did.
func (m *mailbox) offer(v int) bool {
	if len(m.ch) < cap(m.ch) { // check, then act: another offer may fill it
		m.ch <- v
		return true
	}
	return false
}

func TestOffer(t *testing.T) {
	m := &mailbox{ch: make(chan int, 1)}
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.offer(i)
		}()
	}
	wg.Wait()
	if v := <-m.ch; v != 1 && v != 2 {
		t.Fatalf("got %d", v)
	}
}
