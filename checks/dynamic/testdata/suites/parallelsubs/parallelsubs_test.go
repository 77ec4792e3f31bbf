// Package parallelsubs: parallel subtests where the one started later
// fails first. late starts first and checks the shared count after a
// second; early starts two adders that lose an update on some schedules
// and checks at once. On such a schedule both fail, early first: the
// finding must name early, whose assertion it quotes.
package parallelsubs

import (
	"sync"
	"testing"
	"time"
)

type tally struct {
	mu sync.Mutex
	n  int
}

// add reads and writes n in two critical sections.
func (c *tally) add() {
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	c.mu.Lock()
	c.n = v + 1
	c.mu.Unlock()
}

func (c *tally) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func TestParallel(t *testing.T) {
	c := &tally{}
	started := make(chan struct{})
	t.Run("late", func(t *testing.T) {
		t.Parallel()
		<-started
		time.Sleep(time.Second)
		if n := c.get(); n != 2 {
			t.Errorf("late: n = %d, want 2", n)
		}
	})
	t.Run("early", func(t *testing.T) {
		t.Parallel()
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() { defer wg.Done(); c.add() }()
		}
		wg.Wait()
		close(started)
		if n := c.get(); n != 2 {
			t.Errorf("early: n = %d, want 2", n)
		}
	})
}
