// Package oklastcloser: the producer that brings the count to zero closes,
// using the value Add returns. Must not be reported.
package oklastcloser

import (
	"sync/atomic"
	"testing"
)

func TestFanIn(t *testing.T) {
	out := make(chan int, 4)
	var live atomic.Int32
	live.Store(2)
	produce := func(v int) {
		out <- v
		if live.Add(-1) == 0 {
			close(out)
		}
	}
	go produce(1)
	go produce(2)
	sum := 0
	for v := range out {
		sum += v
	}
	if sum != 3 {
		t.Fatalf("sum %d, want 3", sum)
	}
}
