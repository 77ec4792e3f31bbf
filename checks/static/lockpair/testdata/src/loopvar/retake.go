package loopvar

import "sync"

// Per-element locks held across loops (wireguard's SetPrivateKey): every
// element is read-locked in one loop and kept in a slice, a second loop
// drops the lock of a matching element around a call and takes it again,
// a third releases them all. The second loop's iteration leaves each lock
// as it found it: nothing to report there.

type peer struct {
	hs struct {
		mu  sync.RWMutex
		key string
	}
	gone bool
}

type device struct {
	mu    sync.Mutex
	peers map[string]*peer
	key   string
}

func (d *device) removeLocked(p *peer, k string) {
	p.hs.mu.Lock()
	p.gone = true
	p.hs.mu.Unlock()
	delete(d.peers, k)
}

func (d *device) SetKey(key string) { // want SetKey:"acquires d.mu"
	d.mu.Lock()
	defer d.mu.Unlock()
	locked := make([]*peer, 0, len(d.peers))
	for _, p := range d.peers {
		p.hs.mu.RLock()
		locked = append(locked, p)
	}
	for k, p := range d.peers {
		if p.hs.key == key {
			p.hs.mu.RUnlock()
			d.removeLocked(p, k)
			p.hs.mu.RLock()
		}
	}
	d.key = key
	for _, p := range locked {
		p.hs.mu.RUnlock()
	}
}

// Promote drops each element's read lock and takes its write lock: the
// iteration leaves the element write-locked where it found it read-locked,
// and the loop after it read-unlocks a write-locked mutex.
func (d *device) Promote(key string) { // want Promote:"acquires d.mu"
	d.mu.Lock()
	defer d.mu.Unlock()
	locked := make([]*peer, 0, len(d.peers))
	for _, p := range d.peers {
		p.hs.mu.RLock()
		locked = append(locked, p)
	}
	for _, p := range d.peers {
		if p.hs.key == key {
			p.hs.mu.RUnlock()
			p.hs.mu.Lock()
			p.hs.key = ""
		}
	} // want `p.hs.mu locked at line 67 can still be held at the end of the loop body`
	for _, p := range locked {
		p.hs.mu.RUnlock()
	}
}
