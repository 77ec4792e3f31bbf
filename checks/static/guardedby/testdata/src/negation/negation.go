// Package negation: function docs that say the lock must NOT be held are
// not requirements to hold it.
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
