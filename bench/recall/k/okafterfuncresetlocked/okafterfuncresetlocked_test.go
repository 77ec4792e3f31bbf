// Package okafterfuncresetlocked: a callback takes and delivers its batch
// in one critical section, so overlapping callbacks keep the order. Must
// not be reported.
package okafterfuncresetlocked

import (
	"slices"
	"sync"
	"testing"
	"time"
)

type sink struct {
	mu  sync.Mutex
	got []int
}

func (s *sink) put(b []int) {
	s.mu.Lock()
	s.got = append(s.got, b...)
	s.mu.Unlock()
}

type batcher struct {
	mu      sync.Mutex
	pending []int
	t       *time.Timer
	out     *sink
}

func newBatcher(out *sink) *batcher {
	b := &batcher{out: out}
	b.t = time.AfterFunc(time.Hour, b.fire)
	b.t.Stop()
	return b
}

func (b *batcher) add(v int) {
	b.mu.Lock()
	b.pending = append(b.pending, v)
	b.mu.Unlock()
	b.t.Reset(time.Millisecond)
}

func (b *batcher) fire() {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.pending
	b.pending = nil
	if len(p) > 0 {
		b.out.put(p)
	}
}

func TestOrder(t *testing.T) {
	s := &sink{}
	b := newBatcher(s)
	b.add(1)
	time.Sleep(time.Millisecond)
	b.add(2)
	time.Sleep(5 * time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Equal(s.got, []int{1, 2}) {
		t.Fatalf("got %v, want [1 2]", s.got)
	}
}
