// Package onlyrlock: an RWMutex that is only ever read-locked, with
// writes under the read lock. There is no write lock anywhere to show
// that the mutex guards the field: the write under RLock is the bug.
package onlyrlock

import (
	"sync"
	"time"
)

type peerSet struct {
	mu       sync.RWMutex
	peers    map[string]time.Time
	lastScan time.Time
	scans    int
}

func (p *peerSet) Seen(id string) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	p.peers[id] = time.Now() // want `map p.peers modified while holding only the read lock p.mu`
}

func (p *peerSet) Scan() []string {
	p.mu.RLock()
	defer p.mu.RUnlock()
	p.lastScan = time.Now() // want `field p.lastScan written while holding only the read lock p.mu`
	p.scans++               // want `field p.scans written while holding only the read lock p.mu`
	out := make([]string, 0, len(p.peers))
	for id := range p.peers {
		out = append(out, id)
	}
	return out
}

// lease's RWMutex is write-locked through a helper: the usual evidence
// (a write under the write lock) is missing for ttl, but the mutex is
// not read-only, so the pass stays silent on it.
type lease struct {
	mu      sync.RWMutex
	ttl     time.Duration
	revoked bool
}

func (l *lease) lock()   { l.mu.Lock() }
func (l *lease) unlock() { l.mu.Unlock() }

func (l *lease) Revoke() {
	l.lock()
	l.revoked = true
	l.unlock()
}

func (l *lease) Refresh(d time.Duration) {
	l.mu.RLock()
	l.ttl = d // ok: the mutex is write-locked elsewhere, ttl is never
	l.mu.RUnlock()
}

// cond: the RWMutex is handed to sync.NewCond, which write-locks it.
type queue struct {
	mu    sync.RWMutex
	cond  *sync.Cond
	items []int
	n     int
}

func newQueue() *queue {
	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *queue) Len() int {
	q.mu.RLock()
	defer q.mu.RUnlock()
	q.n = len(q.items) // ok: the Cond write-locks q.mu
	return q.n
}

// Exported mutex: another package may write-lock it.
type Shared struct {
	Mu    sync.RWMutex
	Count int
}

func (s *Shared) Touch() {
	s.Mu.RLock()
	s.Count++ // ok: other packages can take s.Mu.Lock()
	s.Mu.RUnlock()
}

// serialized holds another lock exclusively around the write.
type serialized struct {
	wmu   sync.Mutex
	mu    sync.RWMutex
	state int
}

func (s *serialized) Set(v int) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.mu.RLock()
	s.state = v // ok: writers are serialized by s.wmu
	s.mu.RUnlock()
}

func (s *serialized) Get() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state
}
