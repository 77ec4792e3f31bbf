// Package okrlocklocked: the read-locked method calls an unlocked helper
// instead of taking the read lock twice. Must not be reported.
package okrlocklocked

import (
	"sync"
	"testing"
)

type index struct {
	mu sync.RWMutex
	m  map[string]int
}

func (x *index) getLocked(k string) int { return x.m[k] }

func (x *index) sum(keys ...string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	s := 0
	for _, k := range keys {
		s += x.getLocked(k)
	}
	return s
}

func (x *index) put(k string, v int) {
	x.mu.Lock()
	x.m[k] = v
	x.mu.Unlock()
}

func TestSum(t *testing.T) {
	x := &index{m: map[string]int{"a": 1}}
	done := make(chan struct{})
	go func() { x.put("b", 2); close(done) }()
	if s := x.sum("a", "b"); s != 1 && s != 3 {
		t.Fatalf("sum %d", s)
	}
	<-done
}
