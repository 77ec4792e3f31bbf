// Package suitemethodrace: a testify suite method starts a flusher and
// keeps counting while it runs; the flusher reads the count without the
// lock the method writes it under.
package suitemethodrace

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/suite"
)

type meter struct {
	mu      sync.Mutex
	pending int
}

func (m *meter) add() {
	m.mu.Lock()
	m.pending++
	m.mu.Unlock()
}

// flushed reads pending without m.mu.
func (m *meter) flushed() int { return m.pending }

type meterSuite struct {
	suite.Suite
	m *meter
}

func (s *meterSuite) SetupTest() { s.m = &meter{} }

func (s *meterSuite) TestFlushWhileCounting() {
	got := make(chan int)
	go func() { got <- s.m.flushed() }()
	s.m.add()
	s.m.add()
	n := <-got
	s.LessOrEqual(n, 2)
}

func TestMeterSuite(t *testing.T) { suite.Run(t, new(meterSuite)) }
