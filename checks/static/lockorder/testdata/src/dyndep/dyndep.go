// Package dyndep calls a callback while holding its lock.
package dyndep

import "sync"

type Conn struct{ ID int }

type Pool struct {
	Mu    sync.Mutex
	conns []*Conn
}

// ForEach calls fn for each connection with the pool locked.
func (p *Pool) ForEach(fn func(*Conn)) { // want ForEach:"calls parameter 1 holding dyndep.Pool.Mu"
	p.Mu.Lock()
	defer p.Mu.Unlock()
	for _, c := range p.conns {
		fn(c)
	}
}

func (p *Pool) Put(c *Conn) { // want Put:"acquires dyndep.Pool.Mu"
	p.Mu.Lock()
	p.conns = append(p.conns, c)
	p.Mu.Unlock()
}
