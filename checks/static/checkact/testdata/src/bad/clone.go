package bad

import "maps"

// A copy-on-write update through a clone: the clone carries the change,
// so writing it back loses what others stored meanwhile.
func (c *counter) cloneSplit(k string) {
	c.mu.Lock()
	m := maps.Clone(c.m)
	c.mu.Unlock()
	m[k] = slow(len(m))
	c.mu.Lock()
	c.m = m // want `c\.m is written from m, read under c\.mu`
	c.mu.Unlock()
}
