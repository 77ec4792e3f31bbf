// Package nochoice: a test whose unperturbed run has no choice (one
// goroutine throughout) beside tests whose later schedules fork by a map's
// order or a random draw and then lose an update.
package nochoice

import (
	"math/rand"
	"sync"
	"testing"
)

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *counter) set(v int) {
	c.mu.Lock()
	c.n = v
	c.mu.Unlock()
}

// incr reads and writes in two critical sections: two at once lose one.
func (c *counter) incr() { c.set(c.get() + 1) }

func both(t *testing.T) {
	c := &counter{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.incr()
		}()
	}
	wg.Wait()
	if got := c.get(); got != 2 {
		t.Fatalf("count = %d, want 2", got)
	}
}

// TestSequential has one goroutine: a lock, but no choice.
func TestSequential(t *testing.T) {
	c := &counter{}
	for i := 0; i < 3; i++ {
		c.incr()
	}
	if got := c.get(); got != 3 {
		t.Fatalf("count = %d, want 3", got)
	}
}

// TestMapFork goes concurrent only when "b" comes first in the range.
func TestMapFork(t *testing.T) {
	m := map[string]bool{"a": false, "b": true, "c": false, "d": false}
	for _, conc := range m {
		if conc {
			both(t)
		}
		break
	}
}

// TestRandFork goes concurrent on one draw in four.
func TestRandFork(t *testing.T) {
	if rand.Intn(4) == 1 {
		both(t)
	}
}
