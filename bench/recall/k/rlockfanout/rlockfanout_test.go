// Package rlockfanout: a read-locked method fans out to worker goroutines
// that read-lock the same RWMutex and waits for them; a writer queued after
// the outer RLock blocks the workers' RLock, and waits for the outer one.
package rlockfanout

import (
	"sync"
	"testing"
)

type table struct {
	mu   sync.RWMutex
	rows map[string]int
}

func (t *table) get(k string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.rows[k]
}

// total reads every key in parallel while holding the read lock, so that
// the key set does not change under it.
func (t *table) total(keys []string) int {
	t.mu.RLock()
	defer t.mu.RUnlock()
	vals := make([]int, len(keys))
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Add(1)
		go func() { defer wg.Done(); vals[i] = t.get(k) }() // RLock in another goroutine
	}
	wg.Wait()
	s := 0
	for _, v := range vals {
		s += v
	}
	return s
}

func (t *table) put(k string, v int) {
	t.mu.Lock()
	t.rows[k] = v
	t.mu.Unlock()
}

func TestTotal(t *testing.T) {
	tb := &table{rows: map[string]int{"a": 1, "b": 2}}
	sum := make(chan int)
	go func() { sum <- tb.total([]string{"a", "b", "c"}) }()
	tb.put("c", 3)
	if s := <-sum; s != 3 && s != 6 {
		t.Fatalf("total %d", s)
	}
}
