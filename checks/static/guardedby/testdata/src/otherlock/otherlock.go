// Package otherlock: a read made under another struct's lock is still a
// read without the field's own documented lock.
package otherlock

import "sync"

type Registry struct {
	mu    sync.Mutex
	peers []*Peer
}

type Peer struct {
	// mu protects the fields below.
	mu       sync.Mutex
	lastSeen int64
}

func (p *Peer) heartbeat() {
	for i := int64(0); ; i++ {
		p.mu.Lock()
		p.lastSeen = i
		p.mu.Unlock()
	}
}

func (r *Registry) Add(p *Peer) {
	r.mu.Lock()
	r.peers = append(r.peers, p)
	r.mu.Unlock()
	go p.heartbeat()
}

// LastSeen holds the registry's lock, not the peer's.
func (p *Peer) LastSeen(r *Registry) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return p.lastSeen // want `field p.lastSeen read without holding p.mu.*heartbeat runs on the goroutine`
}

// Seen holds the peer's own lock.
func (p *Peer) Seen() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lastSeen // ok
}
