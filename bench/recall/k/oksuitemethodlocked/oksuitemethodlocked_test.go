// Package oksuitemethodlocked: the flusher of suitemethodrace reads the
// count under the lock the method writes it under.
package oksuitemethodlocked

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

// flushed reads pending under m.mu.
func (m *meter) flushed() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.pending
}

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
