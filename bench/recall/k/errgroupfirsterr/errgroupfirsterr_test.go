// Package errgroupfirsterr: a hand-made error group records the first
// error without synchronization.
package errgroupfirsterr

import (
	"errors"
	"sync"
	"testing"
)

type group struct {
	wg  sync.WaitGroup
	err error
}

func (g *group) run(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil && g.err == nil {
			g.err = err // unsynchronized; errgroup uses a sync.Once
		}
	}()
}

func (g *group) wait() error {
	g.wg.Wait()
	return g.err
}

func TestGroup(t *testing.T) {
	var g group
	g.run(func() error { return errors.New("a failed") })
	g.run(func() error { return errors.New("b failed") })
	if err := g.wait(); err == nil {
		t.Fatal("no error")
	}
}
