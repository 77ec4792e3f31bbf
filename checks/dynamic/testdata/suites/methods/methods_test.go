// Package methods: bugs in the bodies of testify suite methods, which
// testify runs by reflection through t.Run from its own code. Each bug
// shows only when a method's body and the goroutine it starts
// interleave; TestCalm does the same work correctly and must stay silent.
package methods

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/suite"
)

type ledger struct {
	a, b  sync.Mutex
	mu    sync.Mutex
	count int
}

type ledgerSuite struct {
	suite.Suite
	l *ledger
}

func (s *ledgerSuite) SetupTest() { s.l = &ledger{} }

// TestCalm: one lock order, one critical section per update.
func (s *ledgerSuite) TestCalm() {
	l := s.l
	done := make(chan bool)
	go func() {
		l.a.Lock()
		l.b.Lock()
		l.count++
		l.b.Unlock()
		l.a.Unlock()
		done <- true
	}()
	l.a.Lock()
	l.b.Lock()
	l.count++
	l.b.Unlock()
	l.a.Unlock()
	<-done
	if l.count != 2 {
		s.T().Errorf("count = %d, want 2", l.count)
	}
}

type transferSuite struct{ ledgerSuite }

// TestTransfer: the method locks a then b, its goroutine b then a.
func (s *transferSuite) TestTransfer() {
	l := s.l
	done := make(chan bool)
	go func() {
		l.b.Lock()
		l.a.Lock()
		l.a.Unlock()
		l.b.Unlock()
		done <- true
	}()
	l.a.Lock()
	l.b.Lock()
	l.b.Unlock()
	l.a.Unlock()
	<-done
}

type countSuite struct{ ledgerSuite }

// TestCount: the count is read and written in two critical sections.
func (s *countSuite) TestCount() {
	l := s.l
	add := func() {
		l.mu.Lock()
		n := l.count
		l.mu.Unlock()
		l.mu.Lock()
		l.count = n + 1
		l.mu.Unlock()
	}
	done := make(chan bool)
	go func() { add(); done <- true }()
	add()
	<-done
	if l.count != 2 {
		s.T().Errorf("count = %d, want 2", l.count)
	}
}

func TestTransferSuite(t *testing.T) { suite.Run(t, new(transferSuite)) }

func TestCountSuite(t *testing.T) { suite.Run(t, new(countSuite)) }

func TestCalmSuite(t *testing.T) { suite.Run(t, new(ledgerSuite)) }
