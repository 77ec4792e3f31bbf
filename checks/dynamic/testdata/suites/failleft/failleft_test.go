// Package failleft: a test whose assertion fails under some interleavings
// and, failing, skips the Close that would stop the pool's workers. go
// test tells the failure; the workers left behind follow from it.
// TestPoolCountsCalm does the same work correctly and closes the pool.
package failleft

import (
	"sync"
	"testing"
)

type pool struct {
	jobs chan func()
	wg   sync.WaitGroup
}

func newPool(n int) *pool {
	p := &pool{jobs: make(chan func())}
	for range n {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for job := range p.jobs {
				job()
			}
		}()
	}
	return p
}

func (p *pool) submit(job func()) { p.jobs <- job }

func (p *pool) close() {
	close(p.jobs)
	p.wg.Wait()
}

type tally struct {
	mu   sync.Mutex
	hits int
}

// addSplit reads and writes hits in two critical sections.
func (c *tally) addSplit() {
	c.mu.Lock()
	n := c.hits
	c.mu.Unlock()
	c.mu.Lock()
	c.hits = n + 1
	c.mu.Unlock()
}

func (c *tally) add() {
	c.mu.Lock()
	c.hits++
	c.mu.Unlock()
}

func count(t *testing.T, add func(*tally)) {
	p := newPool(2)
	var c tally
	done := make(chan bool)
	for range 2 {
		p.submit(func() { add(&c); done <- true })
	}
	<-done
	<-done
	if c.hits != 2 {
		t.Fatalf("hits = %d, want 2", c.hits)
	}
	p.close()
}

func TestPoolCounts(t *testing.T) { count(t, (*tally).addSplit) }

func TestPoolCountsCalm(t *testing.T) { count(t, (*tally).add) }
