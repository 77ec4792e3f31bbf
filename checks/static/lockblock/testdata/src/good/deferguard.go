package good

import "sync"

// A helper that takes a lock after its defer statement, which releases
// it (franz-go's assignPartitions: defer func() { c.unguard(s) }(), then
// s = c.guard()): it returns without the lock.
type Consumer struct {
	mu        sync.Mutex
	sessionMu sync.Mutex
	session   int
	events    chan int
}

func (c *Consumer) guard() int {
	c.sessionMu.Lock()
	return c.session
}

func (c *Consumer) unguard(s int) {
	c.session = s
	c.sessionMu.Unlock()
}

func (c *Consumer) assign(n int) {
	var s int
	defer func() {
		c.unguard(s + n)
	}()
	s = c.guard()
}

// Rebalance blocks after assign returned: sessionMu is not held.
func (c *Consumer) Rebalance(n int) int {
	c.mu.Lock()
	c.assign(n)
	c.mu.Unlock()
	return <-c.events // ok: no lock held
}
