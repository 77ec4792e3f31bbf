package sleepread

import (
	"testing"
	"time"
)

// TestJobsSetCounters: three jobs set three counters the test reads after
// a sleep: three racing pairs of lines, one cause.
func TestJobsSetCounters(t *testing.T) {
	a, b, c := 0, 0, 0
	p := Start(3)
	defer p.Stop()
	p.Dispatch(func() { a = 1 })
	p.Dispatch(func() { b = 2 })
	p.Dispatch(func() { c = 3 })
	time.Sleep(10 * time.Millisecond)
	sum := a
	sum += b
	sum += c
	if sum > 6 {
		t.Error("impossible")
	}
}

// TestGoroutinesSetCounters: the same with goroutines of the test's own,
// another test's cause.
func TestGoroutinesSetCounters(t *testing.T) {
	x, y := 0, 0
	go func() { x = 1 }()
	go func() { y = 2 }()
	time.Sleep(10 * time.Millisecond)
	sum := x
	sum += y
	if sum > 3 {
		t.Error("impossible")
	}
}
