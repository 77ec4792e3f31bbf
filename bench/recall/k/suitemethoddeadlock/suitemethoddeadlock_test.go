// Package suitemethoddeadlock: a testify suite method moves stock between
// two shelves while the restocker it started moves it the other way; each
// locks its source shelf first (AB-BA).
package suitemethoddeadlock

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/suite"
)

type shelf struct {
	mu    sync.Mutex
	items int
}

func move(from, to *shelf, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.items -= n
	to.items += n
}

type storeSuite struct {
	suite.Suite
	front, back *shelf
}

func (s *storeSuite) SetupTest() {
	s.front, s.back = &shelf{items: 10}, &shelf{items: 10}
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
