// Package suited: a suite's methods run as subtests a dependency starts
// (grp/suite, testify's shape: t.Run through an interface). The method's
// goroutine and its own steps decide TestLostAddSuite; the scheduler must
// control the subtest to choose the order that fails and to replay it.
package suited

import (
	"sync"
	"testing"

	"grp/suite"
)

type counter struct {
	mu    sync.Mutex
	total int
}

type base struct{ t *testing.T }

func (b *base) T() *testing.T     { return b.t }
func (b *base) SetT(t *testing.T) { b.t = t }

type lostSuite struct{ base }

// TestLostAdd adds to a total its goroutine updates in two critical
// sections: the method's addition between them is lost.
func (s *lostSuite) TestLostAdd() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.mu.Lock()
		n := c.total
		c.mu.Unlock()
		c.mu.Lock()
		c.total = n + 1
		c.mu.Unlock()
	}()
	c.mu.Lock()
	c.total += 10
	c.mu.Unlock()
	wg.Wait()
	if c.total != 11 {
		s.T().Fatalf("total = %d, want 11", c.total)
	}
}

func TestLostAddSuite(t *testing.T) { suite.Run(t, new(lostSuite)) }

type lockedSuite struct{ base }

// TestLocked does the goroutine's update in one critical section.
func (s *lockedSuite) TestLocked() {
	var c counter
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.mu.Lock()
		c.total++
		c.mu.Unlock()
	}()
	c.mu.Lock()
	c.total += 10
	c.mu.Unlock()
	wg.Wait()
	if c.total != 11 {
		s.T().Fatalf("total = %d, want 11", c.total)
	}
}

func TestLockedSuite(t *testing.T) { suite.Run(t, new(lockedSuite)) }
