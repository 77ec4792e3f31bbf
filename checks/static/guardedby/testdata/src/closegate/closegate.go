// Package closegate: a field written under its mutex and then published by
// closing a channel in the same section, read without the mutex only
// after a receive from that channel (a gate, the e2e mirror's Gate.Name).
// The channel is only ever closed, and a second close panics, so every
// write comes before the close and the read after it: no finding. The
// near misses (a writer that does not close, a channel also sent on, one
// replaced after construction, a read not after the receive) are IL1008.
package closegate

import "sync"

// Gate hands out a name once one is set.
type Gate struct {
	mu    sync.Mutex
	name  string
	n     int
	ready chan struct{}
}

func NewGate() *Gate { return &Gate{ready: make(chan struct{})} }

func (g *Gate) Set(name string) {
	g.mu.Lock()
	if g.n == 0 {
		g.name = name
		close(g.ready)
	}
	g.n++
	g.mu.Unlock()
}

func (g *Gate) Label() string    { g.mu.Lock(); defer g.mu.Unlock(); return g.name }
func (g *Gate) Greeting() string { g.mu.Lock(); defer g.mu.Unlock(); return "hi " + g.name }

// Name is the name once set, else "".
func (g *Gate) Name() string {
	select {
	case <-g.ready:
		return g.name // ok: after the close that follows every write
	default:
		return ""
	}
}

// Wait blocks until the name is set. (A read after a blocking receive
// is not counted at all: afterSync in analysis.go.)
func (g *Gate) Wait() string {
	<-g.ready
	return g.name
}

// A second writer renames without closing: the read can race with it.
type Renamable struct {
	mu    sync.Mutex
	name  string
	n     int
	ready chan struct{}
}

func NewRenamable() *Renamable { return &Renamable{ready: make(chan struct{})} }

func (g *Renamable) Set(name string) {
	g.mu.Lock()
	if g.n == 0 {
		g.name = name
		close(g.ready)
	}
	g.n++
	g.mu.Unlock()
}

func (g *Renamable) Rename(name string) {
	g.mu.Lock()
	g.name = name
	g.mu.Unlock()
}

func (g *Renamable) Label() string    { g.mu.Lock(); defer g.mu.Unlock(); return g.name }
func (g *Renamable) Greeting() string { g.mu.Lock(); defer g.mu.Unlock(); return "hi " + g.name }

func (g *Renamable) Name() string {
	select {
	case <-g.ready:
		return g.name // want `field g\.name read without holding g\.mu in exported method Name`
	default:
		return ""
	}
}

// The channel is also sent on: a receive may take the send, before the
// write.
type Signalled struct {
	mu    sync.Mutex
	name  string
	ready chan struct{}
}

func NewSignalled() *Signalled { return &Signalled{ready: make(chan struct{}, 1)} }

func (g *Signalled) Poke() { g.ready <- struct{}{} }

func (g *Signalled) Set(name string) {
	g.mu.Lock()
	g.name = name
	close(g.ready)
	g.mu.Unlock()
}

func (g *Signalled) Label() string    { g.mu.Lock(); defer g.mu.Unlock(); return g.name }
func (g *Signalled) Greeting() string { g.mu.Lock(); defer g.mu.Unlock(); return "hi " + g.name }

func (g *Signalled) Name() string {
	select {
	case <-g.ready:
		return g.name // want `field g\.name read without holding g\.mu in exported method Name`
	default:
		return ""
	}
}

// The channel is replaced after construction: a reader of the old one
// can run beside the next write.
type Resettable struct {
	mu    sync.Mutex
	name  string
	ready chan struct{}
}

func NewResettable() *Resettable { return &Resettable{ready: make(chan struct{})} }

func (g *Resettable) Set(name string) {
	g.mu.Lock()
	g.name = name
	close(g.ready)
	g.mu.Unlock()
}

func (g *Resettable) Reset() {
	g.mu.Lock()
	g.ready = make(chan struct{})
	g.mu.Unlock()
}

func (g *Resettable) Label() string    { g.mu.Lock(); defer g.mu.Unlock(); return g.name }
func (g *Resettable) Greeting() string { g.mu.Lock(); defer g.mu.Unlock(); return "hi " + g.name }

func (g *Resettable) Name() string {
	select {
	case <-g.ready:
		return g.name // want `field g\.name read without holding g\.mu in exported method Name`
	default:
		return ""
	}
}

// The read is in the default case: nothing was received.
type Early struct {
	mu    sync.Mutex
	name  string
	ready chan struct{}
}

func NewEarly() *Early { return &Early{ready: make(chan struct{})} }

func (g *Early) Set(name string) {
	g.mu.Lock()
	g.name = name
	close(g.ready)
	g.mu.Unlock()
}

func (g *Early) Label() string    { g.mu.Lock(); defer g.mu.Unlock(); return g.name }
func (g *Early) Greeting() string { g.mu.Lock(); defer g.mu.Unlock(); return "hi " + g.name }

func (g *Early) Name() string {
	select {
	case <-g.ready:
		return "set"
	default:
		return g.name // want `field g\.name read without holding g\.mu in exported method Name`
	}
}

// The writer may return between the write and the close.
type Partial struct {
	mu    sync.Mutex
	name  string
	ready chan struct{}
}

func NewPartial() *Partial { return &Partial{ready: make(chan struct{})} }

func (g *Partial) Set(name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.name = name
	if name == "" {
		return
	}
	close(g.ready)
}

func (g *Partial) Label() string    { g.mu.Lock(); defer g.mu.Unlock(); return g.name }
func (g *Partial) Greeting() string { g.mu.Lock(); defer g.mu.Unlock(); return "hi " + g.name }

func (g *Partial) Name() string {
	select {
	case <-g.ready:
		return g.name // want `field g\.name read without holding g\.mu in exported method Name`
	default:
		return ""
	}
}
