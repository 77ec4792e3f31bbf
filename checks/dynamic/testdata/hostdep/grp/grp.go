// Package grp plays golang.org/x/sync/errgroup, a dependency module:
// Go runs the caller's function on a goroutine grp starts and returns at
// once; Wait waits for them all and returns the first error.
package grp

import "sync"

// Group is a collection of goroutines working on one task.
type Group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
	sem  chan struct{}
}

// SetLimit bounds the goroutines running at once.
func (g *Group) SetLimit(n int) { g.sem = make(chan struct{}, n) }

// Go calls f on a new goroutine.
func (g *Group) Go(f func() error) {
	if g.sem != nil {
		g.sem <- struct{}{}
	}
	g.wg.Add(1)
	go func() {
		defer g.done()
		if err := f(); err != nil {
			g.once.Do(func() { g.err = err })
		}
	}()
}

func (g *Group) done() {
	if g.sem != nil {
		<-g.sem
	}
	g.wg.Done()
}

// Wait blocks until every goroutine of Go has returned.
func (g *Group) Wait() error {
	g.wg.Wait()
	return g.err
}

// Poll calls cond on a goroutine of its own until it holds, and waits
// for it: a helper that waits for its goroutine itself (it does not hand
// goroutines to its caller).
func Poll(cond func() bool) {
	done := make(chan struct{})
	go func() {
		for !cond() {
		}
		close(done)
	}()
	<-done
}
