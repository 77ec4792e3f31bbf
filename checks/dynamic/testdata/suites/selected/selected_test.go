// Package selected: a suite and a table test whose bugs sit in some
// methods and subtests only, for -run 'TestSuite/TestMethod' and
// -run 'TestX/sub': what the pattern leaves out must not run (TestABBA's
// and abba's deadlocks), what it selects is searched (TestLost's lost
// update), and calm stays silent.
package selected

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/suite"
)

type counter struct {
	a, b  sync.Mutex
	mu    sync.Mutex
	count int
}

// abba: the caller locks a then b, its goroutine b then a.
func abba(c *counter) {
	done := make(chan bool)
	go func() {
		c.b.Lock()
		c.a.Lock()
		c.a.Unlock()
		c.b.Unlock()
		done <- true
	}()
	c.a.Lock()
	c.b.Lock()
	c.b.Unlock()
	c.a.Unlock()
	<-done
}

// add reads and writes the count in two critical sections; safe only when
// the adds do not interleave.
func add(c *counter) {
	c.mu.Lock()
	n := c.count
	c.mu.Unlock()
	c.mu.Lock()
	c.count = n + 1
	c.mu.Unlock()
}

type mixSuite struct {
	suite.Suite
	c *counter
}

func (s *mixSuite) SetupTest() { s.c = &counter{} }

// TestABBA deadlocks on some schedules.
func (s *mixSuite) TestABBA() { abba(s.c) }

// TestLost loses an update on some schedules.
func (s *mixSuite) TestLost() {
	done := make(chan bool)
	go func() { add(s.c); done <- true }()
	add(s.c)
	<-done
	if s.c.count != 2 {
		s.T().Errorf("count = %d, want 2", s.c.count)
	}
}

func TestMixSuite(t *testing.T) { suite.Run(t, new(mixSuite)) }

func TestTable(t *testing.T) {
	t.Run("abba", func(t *testing.T) { abba(&counter{}) })
	t.Run("calm", func(t *testing.T) {
		c := &counter{}
		done := make(chan bool)
		go func() { c.mu.Lock(); c.count++; c.mu.Unlock(); done <- true }()
		c.mu.Lock()
		c.count++
		c.mu.Unlock()
		<-done
		if c.count != 2 {
			t.Errorf("count = %d, want 2", c.count)
		}
	})
}
