package threadsafe

import "sync"

type rawConn struct{ id int64 }

// Conn wraps a connection to make it safe for concurrent use.
//
// As in mongo's topology.Connection, Close clears conn under the lock
// and three accessors read it without: one defect, one finding.
type Conn struct {
	mu   sync.RWMutex
	conn *rawConn
}

func (c *Conn) Close() {
	c.mu.Lock()
	c.conn = nil
	c.mu.Unlock()
}

func (c *Conn) Read() int64 {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.conn.id
}

func (c *Conn) Alive() bool {
	return c.conn != nil // want `Conn is documented as "safe for concurrent use", but Alive reads c.conn without holding c.mu.*\(and 4 more accesses, listed as related\)`
}

func (c *Conn) ServerID() int64 {
	if c.conn == nil {
		return 0
	}
	return c.conn.id
}

func (c *Conn) DriverID() int64 {
	if c.conn == nil {
		return 0
	}
	return c.conn.id
}
