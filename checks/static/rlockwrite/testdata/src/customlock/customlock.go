// Package customlock: the read side of a module's own reader-writer lock
// (lockx.RWMutex, built on sync.RWMutex) lets readers in together; the
// "RLock" of a type built on one sync.Mutex (lockx.Exclusive) does not.
package customlock

import "lockx"

type Cache struct {
	rw   lockx.RWMutex
	m    map[string]int
	hits int

	ex    lockx.Exclusive
	count int
}

func (c *Cache) Put(k string, v int) {
	c.rw.Lock()
	c.m[k] = v
	c.hits = 0
	c.rw.Unlock()
}

func (c *Cache) Get(k string) int {
	c.rw.RLock()
	defer c.rw.RUnlock()
	c.hits++ // want `field c.hits written while holding only the read lock c.rw`
	return c.m[k]
}

func (c *Cache) Reset() {
	c.ex.Lock()
	c.count = 0
	c.ex.Unlock()
}

func (c *Cache) Count() int {
	c.ex.RLock()
	defer c.ex.RUnlock()
	c.count++ // ok: Exclusive's RLock excludes every other holder
	return c.count
}
