package count

import (
	"testing"

	"grp/taskq"
)

// TestLostAddQueued: the task, run by the worker a dependency's
// constructor started (grp/taskq), updates the total in two critical
// sections; the test's addition between them is lost.
func TestLostAddQueued(t *testing.T) {
	var c counter
	q := taskq.New()
	defer q.Close()
	q.Submit(func() {
		c.mu.Lock()
		n := c.total
		c.mu.Unlock()
		c.mu.Lock()
		c.total = n + 1
		c.mu.Unlock()
	})
	c.addLocked()
	q.Wait()
	if c.total != 2 {
		t.Fatalf("total = %d, want 2", c.total)
	}
}
