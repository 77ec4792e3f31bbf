// Package toolrace holds two kernels of races through interleave's
// runtime: one of the runtime's own (a test build, -tags
// interleave_selfrace, reads a context's timer without its lock, as rt's
// timerOf once did) and one of the code's, whose accesses a wrapper of
// the runtime makes on the code's behalf (the range over the code's map).
package toolrace

import (
	"context"
	"testing"
	"time"
)

// TestCancelParent: a parent context cancelled by another goroutine after
// a child with a timeout was made. The code is race-free; with -tags
// interleave_selfrace the runtime's WithTimeout reads the child's timer
// unlocked, racing with the parent's cancel clearing it.
func TestCancelParent(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		time.Sleep(time.Millisecond)
		cancel()
		close(done)
	}()
	ctx, stop := context.WithTimeout(parent, time.Hour)
	defer stop()
	<-done
	<-ctx.Done()
}

// TestRangeWhileStoring: the code ranges over a map another goroutine
// stores into, with nothing ordering them: the code's race, though the
// range is made by the runtime's MapIter.
func TestRangeWhileStoring(t *testing.T) {
	m := map[string]int{"a": 1}
	done := make(chan struct{})
	go func() {
		m["b"] = 2
		close(done)
	}()
	n := 0
	for k, v := range m {
		n += len(k) + v
	}
	<-done
	if n == 0 {
		t.Fatal("empty")
	}
}
