// Package timerdrain: the pre-Go 1.23 drain idiom `if !t.Stop() { <-t.C }`
// after a select that may already have received the timer's value blocks
// forever.
package timerdrain

import (
	"testing"
	"time"
)

func await(results <-chan int, timeout time.Duration) (int, bool) {
	t := time.NewTimer(timeout)
	var v int
	ok := false
	select {
	case v = <-results:
		ok = true
	case <-t.C:
	}
	if !t.Stop() {
		<-t.C // the value was already received above: blocks forever
	}
	return v, ok
}

func TestAwait(t *testing.T) {
	results := make(chan int, 1)
	go func() { results <- 7 }()
	if v, ok := await(results, 50*time.Millisecond); ok && v != 7 {
		t.Fatalf("got %d", v)
	}
}
