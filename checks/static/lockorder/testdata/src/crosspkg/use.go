package crosspkg // want package:"order orderdep.Conn.Mu -> orderdep.Pool.Mu"

import "orderdep"

func Release(p *orderdep.Pool, c *orderdep.Conn) { // want Release:"acquires orderdep.Conn.Mu, orderdep.Pool.Mu"
	c.Mu.Lock()
	defer c.Mu.Unlock()
	p.Mu.Lock() // want `lock order inversion: p.Mu \(orderdep.Pool.Mu\) acquired while holding c.Mu \(orderdep.Conn.Mu\), but orderdep.\(\*Pool\).CloseAll acquires orderdep.Conn.Mu while holding orderdep.Pool.Mu at dep.go:20`
	p.Mu.Unlock()
}
