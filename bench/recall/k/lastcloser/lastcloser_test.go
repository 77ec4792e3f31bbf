// Package lastcloser: each producer checks whether it is the last one and
// then decrements, so two producers can both decide the other closes.
package lastcloser

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
		if live.Load() == 1 { // check, then act: should be live.Add(-1) == 0
			close(out)
		}
		live.Add(-1)
	}
	go produce(1)
	go produce(2)
	sum := 0
	for v := range out { // never ends when nobody closed out
		sum += v
	}
	if sum != 3 {
		t.Fatalf("sum %d, want 3", sum)
	}
}
