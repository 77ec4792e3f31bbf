// Package oksuitemethodorder: suitemethoddeadlock with one lock order: a
// move locks the shelves in a fixed order (front before back), whichever
// way the stock goes.
package oksuitemethodorder

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/suite"
)

type shelf struct {
	rank  int
	mu    sync.Mutex
	items int
}

func move(from, to *shelf, n int) {
	first, second := from, to
	if second.rank < first.rank {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.items -= n
	to.items += n
}

type storeSuite struct {
	suite.Suite
	front, back *shelf
}

func (s *storeSuite) SetupTest() {
	s.front, s.back = &shelf{rank: 0, items: 10}, &shelf{rank: 1, items: 10}
}

func (s *storeSuite) TestRestockWhileSelling() {
	done := make(chan struct{})
	go func() {
		move(s.back, s.front, 3) // restock
		close(done)
	}()
	move(s.front, s.back, 1) // return to the back
	<-done
	s.Equal(20, s.front.items+s.back.items)
}

func TestStoreSuite(t *testing.T) { suite.Run(t, new(storeSuite)) }
