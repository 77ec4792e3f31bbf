// Package okallocfreerange: a counter vector whose hot path hashes a small
// label map (a range over it) and must not allocate; the test asserts so
// with testing.AllocsPerRun while other goroutines count. Must not be
// reported: a range the tool made allocate would fail it.
package okallocfreerange

import (
	"sync"
	"testing"
)

type counterVec struct {
	mu     sync.Mutex
	counts map[uint64]int
}

// key hashes labels independently of the order a range visits them.
func key(labels map[string]string) uint64 {
	var h uint64
	for k, v := range labels {
		x := uint64(14695981039346656037)
		for i := 0; i < len(k); i++ {
			x = (x ^ uint64(k[i])) * 1099511628211
		}
		x = (x ^ '=') * 1099511628211
		for i := 0; i < len(v); i++ {
			x = (x ^ uint64(v[i])) * 1099511628211
		}
		h += x
	}
	return h
}

func (c *counterVec) inc(labels map[string]string) {
	k := key(labels)
	c.mu.Lock()
	c.counts[k]++
	c.mu.Unlock()
}

func (c *counterVec) get(labels map[string]string) int {
	k := key(labels)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[k]
}

func TestIncAllocs(t *testing.T) {
	c := &counterVec{counts: map[uint64]int{}}
	get := map[string]string{"method": "GET", "code": "200", "route": "/items"}
	put := map[string]string{"method": "PUT", "code": "204", "route": "/items"}
	c.inc(get)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				c.inc(put)
			}
		}()
	}
	if a := testing.AllocsPerRun(20, func() { c.inc(get) }); a != 0 {
		t.Errorf("inc allocates %v times per call, want 0", a)
	}
	wg.Wait()
	if n := c.get(put); n != 10 {
		t.Errorf("put counted %d times, want 10", n)
	}
	if n := c.get(get); n != 22 {
		t.Errorf("get counted %d times, want 22", n)
	}
}
