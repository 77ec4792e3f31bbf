// Package customlock: a module's own lock type (the sharded
// lockx.RWMutex, whose Lock no summary can name) pairs like a sync
// mutex; a file lock is no mutex.
package customlock

import (
	"errors"

	"lockx"
)

var errEmpty = errors.New("empty key")

type Cache struct {
	rw lockx.RWMutex
	m  map[string]int
	fl lockx.FileLock
}

func (c *Cache) Put(k string, v int) error { // want Put:"acquires c.rw"
	c.rw.Lock()
	if k == "" {
		return errEmpty // want `c.rw locked at line 21 is still held at this return`
	}
	c.m[k] = v
	c.rw.Unlock()
	return nil
}

func (c *Cache) Get(k string) (int, bool) { // want Get:`acquires c.rw\[0\].RWMutex \(read\)`
	c.rw.RLock()
	defer c.rw.RUnlock()
	v, ok := c.m[k] // ok: released by the deferred RUnlock
	return v, ok
}

func (c *Cache) Delete(k string) { // want Delete:"acquires c.rw"
	c.rw.Lock()
	delete(c.m, k)
	c.rw.Unlock() // ok
}

// Again locks twice: a module's lock type may be re-entrant (an owner and
// a count), so no double lock is claimed.
func (c *Cache) Again() {
	c.rw.Lock()
	c.rw.Lock()
	c.rw.Unlock()
	c.rw.Unlock()
}

// Sync takes the file lock and keeps it: not a mutex of this process,
// nothing said.
func (c *Cache) Sync() error {
	c.fl.Lock()
	if len(c.m) == 0 {
		return errEmpty
	}
	c.fl.Unlock()
	return nil
}

// Modes: types whose Lock need not hold a mutex (lockx.Cond, Off, NoOp,
// Try, Flock, Counter) pair like nothing: no return keeps a lock, no
// Unlock releases one (Flock and Counter take and release their own
// mutex inside: the summaries say so).
type Modes struct {
	c lockx.Cond
	o lockx.Off
	n lockx.NoOp
	t lockx.Try
	f lockx.Flock
	k lockx.Counter
	d lockx.Named
	v int
}

func (m *Modes) Put(v int) error { // want Put:"acquires m.f.mu, m.k.mu"
	m.c.Lock()
	m.o.Lock()
	m.n.Lock()
	m.t.Lock()
	m.f.Lock()
	m.k.Lock()
	if v < 0 {
		return errEmpty
	}
	m.v = v
	m.k.Unlock()
	m.f.Unlock()
	m.t.Unlock()
	m.n.Unlock()
	m.o.Unlock()
	m.c.Unlock()
	return nil
}

func (m *Modes) Unpaired() { // want Unpaired:"acquires m.k.mu"
	m.c.Unlock()
	m.k.Unlock()
}

// PutNamed: lockx.Named delegates to lockx.Mutex, a lock.
func (m *Modes) PutNamed(v int) error { // want PutNamed:"acquires m.d"
	m.d.Lock()
	if v < 0 {
		return errEmpty // want `m.d.m.mu locked at line 105 is still held at this return`
	}
	m.v = v
	m.d.Unlock()
	return nil
}
