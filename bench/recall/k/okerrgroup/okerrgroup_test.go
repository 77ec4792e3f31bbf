// Package okerrgroup: the hand-made error group records the first error
// through a sync.Once, as errgroup does. Must not be reported.
package okerrgroup

import (
	"errors"
	"sync"
	"testing"
)

type group struct {
	wg      sync.WaitGroup
	errOnce sync.Once
	err     error
}

func (g *group) run(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.errOnce.Do(func() { g.err = err })
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
