// Package wgwaitunderlock: flush waits for in-flight writes while holding
// the lock those writes need to finish.
package wgwaitunderlock

import (
	"sync"
	"testing"
)

type journal struct {
	mu       sync.Mutex
	inflight sync.WaitGroup
	lines    []string
	flushed  int
}

func (j *journal) flush() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.inflight.Wait() // a writer holding an inflight slot needs j.mu
	j.flushed = len(j.lines)
}

func TestFlush(t *testing.T) {
	j := &journal{}
	j.inflight.Add(1) // a write begins
	done := make(chan struct{})
	go func() { j.flush(); close(done) }()
	j.mu.Lock()
	j.lines = append(j.lines, "a")
	j.mu.Unlock()
	j.inflight.Done()
	<-done
	if j.flushed != 1 {
		t.Fatalf("flushed %d lines, want 1", j.flushed)
	}
}
