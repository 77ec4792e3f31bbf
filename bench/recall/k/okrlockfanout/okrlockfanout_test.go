// Package okrlockfanout: the read-locked method copies the rows it needs
// under one RLock and the workers read the copy without locking. Must not
// be reported.
package okrlockfanout

import (
	"sync"
	"testing"
)

type table struct {
	mu   sync.RWMutex
	rows map[string]int
}

func (t *table) total(keys []string) int {
	t.mu.RLock()
	snap := make([]int, len(keys))
	for i, k := range keys {
		snap[i] = t.rows[k]
	}
	t.mu.RUnlock()
	vals := make([]int, len(keys))
	var wg sync.WaitGroup
	for i := range keys {
		wg.Add(1)
		go func() { defer wg.Done(); vals[i] = snap[i] * 1 }()
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
