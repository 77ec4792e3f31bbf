// Package lastcloserdouble: each producer decrements and then loads the
// count of live producers, so both can see zero and close.
package lastcloserdouble

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
		live.Add(-1)
		if live.Load() == 0 { // should use the value Add returned
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
