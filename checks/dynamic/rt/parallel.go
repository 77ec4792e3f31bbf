package rt

import "testing"

// The t.Parallel bookkeeping that goroutines other than S share: a parent
// and its subtests read and write these fields at moments the scheduler
// orders, so they are touched only here, in //go:norace code, and the
// race detector sees only the channel operations that stand for go test's
// own synchronization (t.Run returning, the parent's barrier, the end of a
// parallel subtest).

// prepareRun is called by g before starting subtest c with t: c may go
// parallel only when t is g's own test.
//
//go:norace
func prepareRun(g, c *gstate, t *testing.T) {
	if g.tb == nil || g.tb != testing.TB(t) {
		return
	}
	c.mayParallel = true
	if g.barrier == nil {
		g.barrier = make(chan struct{})
	}
}

// goParallel marks g, a subtest whose test is t, as parallel and returns
// its parent, or returns nil when t.Parallel does nothing here.
//
//go:norace
func goParallel(g *gstate, t *testing.T) *gstate {
	if !g.mayParallel || g.paused != nil || g.tb != testing.TB(t) || g.parent == nil {
		return nil
	}
	g.paused = make(chan struct{})
	close(g.paused)
	g.finished = make(chan struct{})
	g.parent.kids = append(g.parent.kids, g)
	return g.parent
}

//go:norace
func barrierOf(g *gstate) chan struct{} { return g.barrier }

//go:norace
func pausedOf(g *gstate) chan struct{} { return g.paused }

//go:norace
func exitedOf(g *gstate) bool { return g.exited }

//go:norace
func finishedOf(g *gstate) chan struct{} { return g.finished }

//go:norace
func kidsOf(g *gstate) []*gstate { return g.kids }

// protect runs f, returning the value it panicked with; when f calls
// runtime.Goexit, finish runs before the goroutine ends.
func protect(f func(), finish func(any)) (p any) {
	returned := false
	defer func() {
		if returned {
			return
		}
		if p = recover(); p == nil {
			finish(nil) // runtime.Goexit: the goroutine ends here
		}
	}()
	f()
	returned = true
	return nil
}
