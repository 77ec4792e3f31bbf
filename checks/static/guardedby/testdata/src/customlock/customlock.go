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

// Modes holds fields "guarded" by types whose Lock need not hold a mutex
// (lockx.Cond, Off, NoOp, Try, Flock, Counter): none is a lock, no field
// is guarded by one. Named delegates to lockx.Mutex: a lock.
type Modes struct {
	c  lockx.Cond
	cn int
	o  lockx.Off
	on int
	n  lockx.NoOp
	nn int
	t  lockx.Try
	tn int
	f  lockx.Flock
	fn int
	k  lockx.Counter
	kn int
	d  lockx.Named
	dn int
}

func (m *Modes) loop() {
	for {
		m.c.Lock()
		m.cn++
		m.c.Unlock()
		m.o.Lock()
		m.on++
		m.o.Unlock()
		m.n.Lock()
		m.nn++
		m.n.Unlock()
		m.t.Lock()
		m.tn++
		m.t.Unlock()
		m.f.Lock()
		m.fn++
		m.f.Unlock()
		m.k.Lock()
		m.kn++
		m.k.Unlock()
		m.d.Lock()
		m.dn++
		m.d.Unlock()
	}
}

func StartModes(m *Modes) { go m.loop() }

func (m *Modes) Get() int {
	m.d.Lock()
	defer m.d.Unlock()
	return m.dn // ok
}

func (m *Modes) GetC() int {
	m.c.Lock()
	defer m.c.Unlock()
	return m.cn
}

func (m *Modes) GetO() int {
	m.o.Lock()
	defer m.o.Unlock()
	return m.on
}

func (m *Modes) GetN() int {
	m.n.Lock()
	defer m.n.Unlock()
	return m.nn
}

func (m *Modes) GetT() int {
	m.t.Lock()
	defer m.t.Unlock()
	return m.tn
}

func (m *Modes) GetF() int {
	m.f.Lock()
	defer m.f.Unlock()
	return m.fn
}

func (m *Modes) GetK() int {
	m.k.Lock()
	defer m.k.Unlock()
	return m.kn
}

func (m *Modes) Read() int {
	return m.cn + m.on + m.nn + m.tn + m.fn + m.kn // no lock to name
}

func (m *Modes) ReadNamed() int {
	return m.dn // want `field m.dn read without holding m.d \(held at 2 of 2 other accesses\); loop runs on the goroutine`
}

// cond locks only when enabled, in this package: not a lock either.
type cond struct {
	enabled bool
	mu      sync.Mutex
	v       int
}

func (c *cond) Lock() {
	if c.enabled {
		c.mu.Lock()
	}
}

func (c *cond) Unlock() {
	if c.enabled {
		c.mu.Unlock()
	}
}

type Local struct {
	c cond
	n int
}

func (l *Local) loop() {
	for {
		l.c.Lock()
		l.n++
		l.c.Unlock()
	}
}

func StartLocal(l *Local) { go l.loop() }

func (l *Local) Get() int {
	l.c.Lock()
	defer l.c.Unlock()
	return l.n
}

func (l *Local) Read() int { return l.n }
