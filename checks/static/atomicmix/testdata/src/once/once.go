// Package once: variables set up inside sync.Once.Do and then used
// atomically. Do returns only after its function ran, so the plain write
// there happens before every access that follows a Do of the same Once.
package once

import (
	"crypto/rand"
	"encoding/binary"
	"sync"
	"sync/atomic"
)

var (
	seed    [16]byte
	counter uint64
	setup   sync.Once
)

// NextID seeds the counter once, then counts atomically.
func NextID() uint64 {
	setup.Do(func() {
		if _, err := rand.Read(seed[:]); err != nil {
			return
		}
		counter = binary.BigEndian.Uint64(seed[:8]) // silent: every access follows setup.Do
	})
	if atomic.LoadUint64(&counter) == 0 {
		return 0
	}
	return atomic.AddUint64(&counter, 1)
}

// Ready also goes through the Once first.
func Ready() bool {
	setup.Do(func() {})
	return atomic.LoadUint64(&counter) != 0
}

type gen struct {
	once sync.Once
	next uint64
}

func (g *gen) Next() uint64 {
	g.once.Do(func() { g.next = 100 }) // silent: the same Once, the same g
	return atomic.AddUint64(&g.next, 1)
}

func (x *gen) Peek() uint64 {
	x.once.Do(func() {})
	return atomic.LoadUint64(&x.next)
}

// An atomic reader that does not go through the Once.
var (
	hits      uint64
	hitsSetup sync.Once
)

func Hit() uint64 {
	hitsSetup.Do(func() {
		hits = 1 /* IL3002 */ // want `plain write of hits races with its atomic accesses`
	})
	return atomic.AddUint64(&hits, 1)
}

func PeekHits() uint64 { return atomic.LoadUint64(&hits) }

// A plain write outside the Do as well.
var (
	total      uint64
	totalSetup sync.Once
)

func Add(n uint64) uint64 {
	totalSetup.Do(func() {
		total = 10 /* IL3002 */ // want `plain write of total races with its atomic accesses \(atomic\.AddUint64 at once\.go:\d+\) \(and 1 more plain write, listed as related\)`
	})
	return atomic.AddUint64(&total, n)
}

func Reset() {
	total = 0 // a related position of the finding above
}

// A different Once guards the reader.
var (
	seq              uint64
	seqSetup, seqAlt sync.Once
)

func Seq() uint64 {
	seqSetup.Do(func() {
		seq = 7 /* IL3002 */ // want `plain write of seq races with its atomic accesses`
	})
	return atomic.AddUint64(&seq, 1)
}

func OtherSeq() uint64 {
	seqAlt.Do(func() {})
	return atomic.AddUint64(&seq, 1)
}

// A field set through another value's Once.
type pair struct {
	once sync.Once
	n    uint64
}

func (p *pair) Link(q *pair) uint64 {
	p.once.Do(func() {
		q.n = 1 /* IL3002 */ // want `plain write of q\.n races with its atomic accesses`
	})
	return atomic.AddUint64(&p.n, 1)
}

// A Do that may not run before the reader.
var (
	lazy      uint64
	lazySetup sync.Once
)

func Lazy(first bool) uint64 {
	if first {
		lazySetup.Do(func() {
			lazy = 3 /* IL3002 */ // want `plain write of lazy races with its atomic accesses`
		})
	}
	return atomic.AddUint64(&lazy, 1)
}

// The base is retargeted between the Do and the access.
type cell struct {
	once sync.Once
	v    uint64
}

func (c *cell) Get() uint64 {
	c.once.Do(func() {
		c.v = 5 /* IL3002 */ // want `plain write of c\.v races with its atomic accesses`
	})
	return atomic.AddUint64(&c.v, 1)
}

func (c *cell) Swap(o *cell) uint64 {
	c.once.Do(func() {})
	c = o
	return atomic.LoadUint64(&c.v)
}

// The base is retargeted by a range loop.
type slot struct {
	once sync.Once
	v    uint64
}

func (s *slot) Get() uint64 {
	s.once.Do(func() {
		s.v = 5 /* IL3002 */ // want `plain write of s\.v races with its atomic accesses`
	})
	return atomic.AddUint64(&s.v, 1)
}

func (s *slot) Sum(all []*slot) (n uint64) {
	s.once.Do(func() {})
	for _, s = range all {
		n += atomic.LoadUint64(&s.v)
	}
	return n
}
