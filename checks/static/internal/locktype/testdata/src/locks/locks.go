// Package locks declares types with Lock and Unlock: the plain locks get
// a fact, the rest none.
package locks

import "sync"

// Mutex records its holder.
type Mutex struct { // want Mutex:`lock \[Lock Unlock\]`
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

// Sharded takes every shard for writing, one for reading.
type Sharded []shard // want Sharded:`lock \[Lock RLock RUnlock Unlock\]`

type shard struct { // want shard:`lock \[Lock RLock RUnlock TryLock TryRLock Unlock\]`
	sync.RWMutex
	_ [40]byte
}

func (s Sharded) Lock() {
	for i := range s {
		s[i].Lock()
	}
}

func (s Sharded) Unlock() {
	for i := range s {
		s[i].Unlock()
	}
}

func (s Sharded) RLock()   { s[0].RLock() }
func (s Sharded) RUnlock() { s[0].RUnlock() }

// Embedded promotes sync.RWMutex's methods.
type Embedded struct { // want Embedded:`lock \[Lock RLock RUnlock TryLock TryRLock Unlock\]`
	sync.RWMutex
	n int
}

// Try is plain with a try-lock beside Lock.
type Try struct { // want Try:`lock \[Lock TryLock Unlock\]`
	mu sync.Mutex
}

func (t *Try) Lock()         { t.mu.Lock() }
func (t *Try) Unlock()       { t.mu.Unlock() }
func (t *Try) TryLock() bool { return t.mu.TryLock() }

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

func (o *Off) Unlock() { o.mu.Unlock() }

// NoOp never takes its mutex.
type NoOp struct{ mu sync.Mutex }

func (n *NoOp) Lock()   {}
func (n *NoOp) Unlock() {}

// TryNamedLock's Lock may return without the mutex.
type TryNamedLock struct {
	mu sync.Mutex
	ok bool
}

func (t *TryNamedLock) Lock()   { t.ok = t.mu.TryLock() }
func (t *TryNamedLock) Unlock() { t.mu.Unlock() }

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

// Chan is a lock built on a channel: not a sync mutex, not decided here.
type Chan struct{ ch chan struct{} }

func (c *Chan) Lock()   { c.ch <- struct{}{} }
func (c *Chan) Unlock() { <-c.ch }

// Global locks a package mutex, not one of its own.
type Global struct{}

var global sync.Mutex

func (Global) Lock()   { global.Lock() }
func (Global) Unlock() { global.Unlock() }

// Reverse releases its shards last to first.
type Reverse []shard // want Reverse:`lock \[Lock Unlock\]`

func (r Reverse) Lock() {
	for i := range r {
		r[i].Lock()
	}
}

func (r Reverse) Unlock() {
	for i := len(r) - 1; i >= 0; i-- {
		r[i].Unlock()
	}
}
