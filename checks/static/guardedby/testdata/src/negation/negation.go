// Package negation: function docs that say the lock must NOT be held are
// not requirements to hold it; a call made holding it is IL1005.
package negation

import "sync"

type Client struct {
	mu      sync.Mutex
	subs    map[string]int
	pending int
}

// flushOutbound must not be called with c.mu held: it takes the lock.
func (c *Client) flushOutbound() {
	c.mu.Lock()
	c.pending = 0
	c.mu.Unlock()
}

// closeConn can not be called with c.mu held.
func (c *Client) closeConn() {
	c.mu.Lock()
	c.subs = nil
	c.mu.Unlock()
}

// reconnect is called without holding mu.
func (c *Client) reconnect() {
	c.flushOutbound()
}

// Close flushes and closes. It never runs with mu held.
func (c *Client) Close() {
	c.flushOutbound() // ok: documented as NOT requiring c.mu
	c.closeConn()     // ok
	c.reconnect()     // ok
}

// unsubscribe must be called with c.mu held.
func (c *Client) unsubscribe(s string) {
	delete(c.subs, s)
}

func (c *Client) Unsubscribe(s string) {
	c.unsubscribe(s) // want `call to c.unsubscribe without holding c.mu`
}

func (c *Client) UnsubscribeOK(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.unsubscribe(s) // ok
}

// Lock should be held. (nats' convention names no lock: the single
// mutex of the receiver is meant; it sets the entry state only.)
func (c *Client) addSub(s string) {
	c.subs[s]++
}

func (c *Client) AddSub(s string) {
	c.addSub(s) // ok: an unnamed lock is not enforced at call sites
}

// flushUnderLock calls a method documented as called without c.mu while
// holding it.
func (c *Client) flushUnderLock() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.pending++
	c.flushOutbound() // want `call to c.flushOutbound while holding c.mu, which its documentation says must not be held`
}

// sendLocked holds c.mu by its name; closing from here breaks the doc.
func (c *Client) sendLocked() {
	c.pending++
	c.closeConn() // want `call to c.closeConn while holding c.mu`
}

func (c *Client) Send() {
	c.mu.Lock()
	c.sendLocked()
	c.mu.Unlock()
}

// drain must be called without holding c.mu.
func (c *Client) drain() {}

// mu must not be held: wait blocks until the reader, which takes mu,
// finishes.
func (c *Client) wait() {}

func (c *Client) Drain(other *Client) {
	c.mu.Lock()
	c.drain() // want `call to c.drain while holding c.mu`
	c.mu.Unlock()
	c.drain() // ok: released
	c.wait()  // ok
	other.mu.Lock()
	c.wait() // ok: another client's lock
	other.mu.Unlock()
	c.mu.Lock()
	other.wait() // ok: c.mu is not other's
	c.mu.Unlock()
}

func (c *Client) MaybeDrain(locked bool) {
	if locked {
		c.mu.Lock()
	}
	c.drain() // ok: not held on every path
	if locked {
		c.mu.Unlock()
	}
}
