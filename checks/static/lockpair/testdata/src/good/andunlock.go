package good

import "sync"

type grantDB interface{ Allowed() int }

// Granter's grantLockedAndUnlock is entered with the lock held, drops it
// around the grants, takes it back and releases it by its defer on every
// path: its callers do not hold it afterwards.
type Granter struct {
	db grantDB
	mu struct {
		sync.Mutex
		running  int
		closed   bool
		granting bool
	}
	poke, tick chan struct{}
}

func (g *Granter) grantLockedAndUnlock() {
	defer g.mu.Unlock()
	if g.mu.closed {
		return
	}
	n := g.db.Allowed() - g.mu.running
	if n <= 0 {
		return
	}
	g.mu.granting = true
	g.mu.Unlock()
	for ; n > 0; n-- {
		g.db.Allowed()
	}
	g.mu.Lock()
	g.mu.granting = false
}

func (g *Granter) loop() {
	for {
		select {
		case <-g.poke:
			g.mu.Lock()
			g.grantLockedAndUnlock()
		case <-g.tick:
			g.mu.Lock() // ok: the previous grant released it
			g.grantLockedAndUnlock()
		}
	}
}
