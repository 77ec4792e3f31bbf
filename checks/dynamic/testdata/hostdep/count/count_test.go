// Package count: the test's goroutines are started by a dependency (grp,
// errgroup's shape). Their order decides TestLostAdd, which plain go
// test almost never fails: the test's own step falls between two of the
// task's. The scheduler must control the task's goroutine to choose that
// order and to replay it.
package count

import (
	"sync"
	"testing"

	"grp"
)

type counter struct {
	mu    sync.Mutex
	total int
}

func (c *counter) addLocked() {
	c.mu.Lock()
	c.total++
	c.mu.Unlock()
}

// TestLostAdd adds to a total the task updates in two critical
// sections: the test's addition between them is lost.
func TestLostAdd(t *testing.T) {
	var c counter
	var g grp.Group
	g.Go(func() error {
		c.mu.Lock()
		n := c.total
		c.mu.Unlock()
		c.mu.Lock()
		c.total = n + 1
		c.mu.Unlock()
		return nil
	})
	c.mu.Lock()
	c.total += 10
	c.mu.Unlock()
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if c.total != 11 {
		t.Fatalf("total = %d, want 11", c.total)
	}
}

// TestLocked is correct under every order.
func TestLocked(t *testing.T) {
	var c counter
	var g grp.Group
	g.SetLimit(1)
	for i := 0; i < 3; i++ {
		g.Go(func() error { c.addLocked(); return nil })
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if c.total != 3 {
		t.Fatalf("total = %d, want 3", c.total)
	}
}
