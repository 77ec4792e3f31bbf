// Package dynuse passes a locking callback to dyndep.Pool.ForEach and // want package:"order dyndep\\.Pool\\.Mu -> dynuse\\.Stats\\.mu, dynuse\\.Stats\\.mu -> dyndep\\.Pool\\.Mu"
// also calls into the pool with its own lock held.
package dynuse

import (
	"dyndep"
	"sync"
)

type Stats struct {
	mu  sync.Mutex
	ids []int
}

func (s *Stats) Collect(p *dyndep.Pool) { // want Collect:"acquires dyndep\\.Pool\\.Mu via dyndep\\.\\(\\*Pool\\)\\.ForEach"
	p.ForEach(func(c *dyndep.Conn) { // want `lock order inversion: s.mu \(dynuse.Stats.mu\) acquired via dyndep.\(\*Pool\).ForEach -> dynuse.\(\*Stats\).Collect \(func literal\) \(callback, called at dyndep.go:\d+\) while holding p.Mu \(dyndep.Pool.Mu\), but dynuse.\(\*Stats\).Return acquires dyndep.Pool.Mu while holding dynuse.Stats.mu`
		s.mu.Lock()
		s.ids = append(s.ids, c.ID)
		s.mu.Unlock()
	})
}

func (s *Stats) Return(p *dyndep.Pool, c *dyndep.Conn) { // want Return:"acquires dyndep\\.Pool\\.Mu via dyndep\\.\\(\\*Pool\\)\\.Put, dynuse\\.Stats\\.mu"
	s.mu.Lock()
	defer s.mu.Unlock()
	p.Put(c)
}
