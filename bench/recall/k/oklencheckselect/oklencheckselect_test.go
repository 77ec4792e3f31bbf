// Package oklencheckselect: the offer is a select with default, one
// atomic step. Must not be reported.
package oklencheckselect

import (
	"sync"
	"testing"
)

type mailbox struct{ ch chan int }

func (m *mailbox) offer(v int) bool {
	select {
	case m.ch <- v:
		return true
	default:
		return false
	}
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
