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
