// Package recursiverlock: a read-locked method calls another read-locked
// method; a writer queued in between blocks the inner RLock, and the writer
// waits for the outer one.
package recursiverlock

import (
	"sync"
	"testing"
)

type index struct {
	mu sync.RWMutex
	m  map[string]int
}

func (x *index) get(k string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.m[k]
}

func (x *index) sum(keys ...string) int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	s := 0
	for _, k := range keys {
		s += x.get(k) // RLock again while holding it
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
