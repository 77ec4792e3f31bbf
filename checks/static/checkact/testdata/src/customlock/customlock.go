// Package customlock: a value read under a module's own lock type and
// written back under another critical section of it loses updates as
// with a sync mutex.
package customlock

import "lockx"

type Counter struct {
	rw lockx.RWMutex
	m  map[string]int
}

func (c *Counter) Bump(k string) {
	c.rw.RLock()
	v := c.m[k]
	c.rw.RUnlock()
	c.rw.Lock()
	c.m[k] = v + 1 // want `c.m\[k\] is written from v, read under c.rw in an earlier critical section`
	c.rw.Unlock()
}

func (c *Counter) Inc(k string) {
	c.rw.Lock()
	defer c.rw.Unlock()
	v := c.m[k]
	c.m[k] = v + 1 // ok: one critical section
}
