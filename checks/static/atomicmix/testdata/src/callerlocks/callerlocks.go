// Package callerlocks: a message store whose block sequence numbers are
// loaded atomically, and written plainly by helpers that every caller
// calls holding the store-wide write lock. When every atomic access holds
// that lock too (here or in all its callers) the plain write is ordered
// with them; a lock-free reader, a caller without the lock, a read lock,
// an exported writer or a callback keep the report.
package callerlocks

import (
	"sync"
	"sync/atomic"
)

type msgID struct {
	seq uint64
	ts  int64
}

type block struct {
	mu    sync.Mutex
	first msgID
	last  msgID
}

type store struct {
	mu     sync.RWMutex
	blocks []*block
	lmb    *block
}

// Compact and Purge hold the store's write lock around the helpers.
func (s *store) Compact(seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, mb := range s.blocks {
		mb.resetFirst(seq)
	}
}

func (s *store) Purge() {
	s.mu.Lock()
	s.removeAll()
	s.mu.Unlock()
}

func (s *store) removeAll() {
	for _, mb := range s.blocks {
		mb.resetFirst(0)
	}
}

// resetFirst: every caller (Compact, and removeAll through Purge) holds
// s.mu exclusively.
func (mb *block) resetFirst(seq uint64) {
	mb.first.seq = seq // ok: every caller and every atomic access hold store.mu
}

// The atomic accesses of first.seq all hold s.mu exclusively: here, or in
// every caller of the helper that loads it.
func (s *store) FirstSeq() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.blocks[0].firstSeq()
}

func (mb *block) firstSeq() uint64 { return atomic.LoadUint64(&mb.first.seq) }

func (s *store) SetFirst(seq uint64) {
	s.mu.Lock()
	s.lmb.setFirst(seq)
	s.mu.Unlock()
}

func (mb *block) setFirst(seq uint64) { atomic.StoreUint64(&mb.first.seq, seq) }

// last.seq has a lock-free reader: the callers' lock does not order the
// plain write with it. The finding cites that Load, not first.seq's.
func (s *store) LastSeq() uint64 { return s.lmb.lastSeq() }

func (mb *block) lastSeq() uint64 { return atomic.LoadUint64(&mb.last.seq) }

func (s *store) Append() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lmb.bumpLast()
}

func (mb *block) bumpLast() {
	mb.last.seq++ /* IL3002 */ // want `plain write of mb\.last\.seq races with its atomic accesses \(atomic\.LoadUint64 at callerlocks\.go:80\)`
}

// A counter whose atomic reader holds the lock, but one caller of the
// writer does not.
type counter struct {
	mu sync.Mutex
	n  int64
}

func (c *counter) Get() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return atomic.LoadInt64(&c.n)
}

func (c *counter) Set(v int64) {
	c.mu.Lock()
	c.set(v)
	c.mu.Unlock()
}

func (c *counter) Reset() { c.set(0) } // no lock

func (c *counter) set(v int64) {
	c.n = v /* IL3002 */ // want `plain write of c\.n races with its atomic accesses`
}

// A read lock held by every caller does not exclude the other readers.
type gauge struct {
	mu sync.RWMutex
	v  int64
}

func (g *gauge) Get() int64 {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return atomic.LoadInt64(&g.v)
}

func (g *gauge) Refresh() {
	g.mu.RLock()
	g.refresh()
	g.mu.RUnlock()
}

func (g *gauge) refresh() {
	g.v = 1 /* IL3002 */ // want `plain write of g\.v races with its atomic accesses`
}

// An exported writer can be called from outside without the lock.
type level struct {
	mu sync.Mutex
	v  int32
}

func (l *level) Get() int32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return atomic.LoadInt32(&l.v)
}

func (l *level) Bump() {
	l.mu.Lock()
	l.Set(1)
	l.mu.Unlock()
}

func (l *level) Set(v int32) {
	l.v = v /* IL3002 */ // want `plain write of l\.v races with its atomic accesses`
}

// A writer called from a callback runs wherever the callback runs.
type flag struct {
	mu    sync.Mutex
	v     uint32
	hooks []func()
}

func (f *flag) Get() uint32 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return atomic.LoadUint32(&f.v)
}

func (f *flag) Arm() {
	f.mu.Lock()
	f.hooks = append(f.hooks, func() { f.set() })
	f.set()
	f.mu.Unlock()
}

func (f *flag) set() {
	f.v = 1 /* IL3002 */ // want `plain write of f\.v races with its atomic accesses`
}
