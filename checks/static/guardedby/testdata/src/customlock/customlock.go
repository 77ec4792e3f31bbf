// Package customlock: fields guarded by a module's own lock types
// (lockx.Mutex, the sharded lockx.RWMutex) are guarded like those of a
// sync mutex.
package customlock

import (
	"lockx"
	"sync"
)

type Peer struct {
	mu       lockx.Mutex
	lastSeen int64

	rw   lockx.RWMutex
	hits map[string]int

	fl    lockx.FileLock
	state int
}

func (p *Peer) heartbeat() {
	for i := int64(0); ; i++ {
		p.mu.Lock()
		p.lastSeen = i
		p.mu.Unlock()

		p.rw.Lock()
		p.hits["beat"]++
		p.rw.Unlock()

		p.fl.Lock()
		p.state++
		p.fl.Unlock()
	}
}

func Start(p *Peer) { go p.heartbeat() }

// Seen holds the peer's own lock.
func (p *Peer) Seen() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastSeen // ok
}

// Hits holds the read side of the sharded lock.
func (p *Peer) Hits(k string) int {
	p.rw.RLock()
	defer p.rw.RUnlock()
	return p.hits[k] // ok
}

func (p *Peer) LastSeen() int64 {
	return p.lastSeen // want `field p.lastSeen read without holding p.mu \(held at 2 of 2 other accesses\); heartbeat runs on the goroutine`
}

func (p *Peer) Racy(k string) int {
	return p.hits[k] // want `field p.hits read without holding p.rw \(held at 2 of 2 other accesses\); heartbeat runs on the goroutine`
}

// State: a file lock guards no memory; no finding names it.
func (p *Peer) State() int {
	return p.state
}

// lockedMap's Lock wraps its own mutex field: a caller's m.Lock() holds
// m.mu (the lock summary), the mutex its methods take directly.
type lockedMap struct {
	mu sync.Mutex
	m  map[string]int
}

func (l *lockedMap) Lock()   { l.mu.Lock() }
func (l *lockedMap) Unlock() { l.mu.Unlock() }

func (l *lockedMap) get(k string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.m[k]
}

type Index struct {
	byName lockedMap
}

func (x *Index) refresh() {
	for {
		x.byName.Lock()
		x.byName.m["n"]++
		x.byName.Unlock()
	}
}

func Run(x *Index) { go x.refresh() }

func (x *Index) Put(k string, v int) {
	x.byName.Lock()
	x.byName.m[k] = v // ok: x.byName.mu held
	x.byName.Unlock()
}

func (x *Index) Get(k string) int { return x.byName.get(k) }
