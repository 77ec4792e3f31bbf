package orderdep // want package:"order orderdep.Pool.Mu -> orderdep.Conn.Mu"

import "sync"

type Pool struct {
	Mu    sync.Mutex
	conns []*Conn
}

type Conn struct {
	Mu     sync.Mutex
	closed bool
}

// CloseAll takes the pool lock, then each connection's.
func (p *Pool) CloseAll() { // want CloseAll:"acquires orderdep.Conn.Mu, orderdep.Pool.Mu"
	p.Mu.Lock()
	defer p.Mu.Unlock()
	for _, c := range p.conns {
		c.Mu.Lock()
		c.closed = true
		c.Mu.Unlock()
	}
}

func (c *Conn) Close() { // want Close:"acquires orderdep.Conn.Mu"
	c.Mu.Lock()
	c.closed = true
	c.Mu.Unlock()
}
