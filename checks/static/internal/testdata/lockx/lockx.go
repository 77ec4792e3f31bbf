// Package lockx is a module's own lock package (as gopkg's syncx): lock
// types built on sync mutexes, called from another package. One copy for
// every pass: each pass's testdata/src/lockx is a symbolic link here
// (analysistest resolves imports in the pass's own testdata root).
package lockx

import "sync"

// RWMutex is a reader-writer lock split into shards: Lock takes every
// shard, RLock one.
type RWMutex []shard

type shard struct {
	sync.RWMutex
	_ [40]byte
}

func New() RWMutex { return make(RWMutex, 4) }

func (rw RWMutex) Lock() {
	for i := range rw {
		rw[i].Lock()
	}
}

func (rw RWMutex) Unlock() {
	for i := range rw {
		rw[i].Unlock()
	}
}

func (rw RWMutex) RLock()   { rw[0].RLock() }
func (rw RWMutex) RUnlock() { rw[0].RUnlock() }

// Mutex is a sync.Mutex that records its holder.
type Mutex struct {
	mu     sync.Mutex
	holder string
}

func (m *Mutex) Lock() {
	m.mu.Lock()
	m.holder = "locked"
}

func (m *Mutex) Unlock() {
	m.holder = ""
	m.mu.Unlock()
}

// FileLock is a lock of a file, not built on a sync mutex: not a lock
// of this process's memory.
type FileLock struct{ path string }

func (f *FileLock) Lock()   {}
func (f *FileLock) Unlock() {}

// Exclusive offers the RWMutex method names over one sync.Mutex: its
// RLock excludes everyone.
type Exclusive struct{ mu sync.Mutex }

func (e *Exclusive) Lock()    { e.mu.Lock() }
func (e *Exclusive) Unlock()  { e.mu.Unlock() }
func (e *Exclusive) RLock()   { e.mu.Lock() }
func (e *Exclusive) RUnlock() { e.mu.Unlock() }

// The types below have a sync mutex field and Lock and Unlock methods,
// but their Lock does not hold a mutex when it returns: none is a lock.

// Cond locks only when enabled.
type Cond struct {
	enabled bool
	mu      sync.Mutex
}

func (c *Cond) Lock() {
	if c.enabled {
		c.mu.Lock()
	}
}

func (c *Cond) Unlock() {
	if c.enabled {
		c.mu.Unlock()
	}
}

// Off returns early in its no-op mode.
type Off struct {
	off bool
	mu  sync.Mutex
}

func (o *Off) Lock() {
	if o.off {
		return
	}
	o.mu.Lock()
}

func (o *Off) Unlock() {
	if o.off {
		return
	}
	o.mu.Unlock()
}

// NoOp never takes its mutex.
type NoOp struct{ mu sync.Mutex }

func (n *NoOp) Lock()   {}
func (n *NoOp) Unlock() {}

// Try takes its mutex only when it is free.
type Try struct {
	mu sync.Mutex
	ok bool
}

func (t *Try) Lock() { t.ok = t.mu.TryLock() }

func (t *Try) Unlock() {
	if t.ok {
		t.mu.Unlock()
	}
}

// Flock locks a file; its mutex only guards the descriptor's calls.
type Flock struct {
	mu sync.Mutex
	fd int
}

func lockFile(fd int, on bool) {}

func (f *Flock) Lock() {
	f.mu.Lock()
	lockFile(f.fd, true)
	f.mu.Unlock()
}

func (f *Flock) Unlock() {
	f.mu.Lock()
	defer f.mu.Unlock()
	lockFile(f.fd, false)
}

// Counter counts its holders under its mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Lock() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Counter) Unlock() {
	c.mu.Lock()
	c.n--
	c.mu.Unlock()
}

// Named delegates to another lock type of the package: a lock.
type Named struct {
	m    Mutex
	name string
}

func (n *Named) Lock()   { n.m.Lock() }
func (n *Named) Unlock() { n.m.Unlock() }
