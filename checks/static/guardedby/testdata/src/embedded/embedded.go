// Package embedded: fields of an embedded struct are guarded by the
// outer struct's mutex, and each owner has its own.
package embedded

import "sync"

type stats struct {
	inMsgs  int64
	outMsgs int64
	slow    int
}

type client struct {
	// mu protects all members below.
	mu sync.Mutex
	stats
	subs map[string]int
	acc  *account
}

type account struct {
	mu sync.RWMutex // protects the following
	stats
	clients map[*client]struct{}
}

// countOut locks for another field of stats: the finding on c.inMsgs
// cites an access of c.inMsgs, not this one.
func (c *client) countOut() {
	c.mu.Lock()
	c.outMsgs++
	c.mu.Unlock()
}

func (c *client) processMsg(n int64) {
	c.mu.Lock()
	c.inMsgs += n
	c.outMsgs++
	c.mu.Unlock()
}

// InMsgs reads a promoted field of the embedded stats without c.mu.
func (c *client) InMsgs() int64 {
	return c.inMsgs // want `field c.inMsgs \(in embedded stats\) read without holding c.mu`
}

func (c *client) Stats() (in, out int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats.inMsgs, c.stats.outMsgs // ok
}

// markSlow holds the account's lock, not the client's.
func (c *client) MarkSlow() {
	a := c.acc
	a.mu.Lock()
	a.slow++ // ok: the account's own stats, under its own lock
	c.slow++ // related position of the finding at line 36 (same field, lock and rule)
	a.mu.Unlock()
}

func (a *account) addClient(c *client) {
	a.mu.Lock()
	a.clients[c] = struct{}{}
	a.inMsgs += c.inMsgs // ok: c is a parameter; its lock may be its caller's business
	a.mu.Unlock()
}

func (a *account) AddClient(c *client) { a.addClient(c) }

func (a *account) InMsgs() int64 {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.inMsgs // ok
}

// route holds two instances of one type: the lock of one is possibly the
// other (an alias); stay silent.
func (c *client) transfer(other *client) {
	other.mu.Lock()
	c.outMsgs = other.outMsgs // ok: other.mu may be c.mu (same field of the same type)
	other.mu.Unlock()
}

func (c *client) Transfer(o *client) { c.transfer(o) }
