package good

import "sync"

// Packetizer stamps frames for one sender. Write holds the read lock so
// that only the reconfiguring methods, which take the write lock, are
// excluded while it runs.
type Packetizer struct {
	mu      sync.RWMutex
	stamp   uint32
	step    uint32
	flushes int
	out     func([]byte, uint32)
}

// Write stamps and sends one frame. It is not thread safe: frames must
// come in order from one goroutine.
func (p *Packetizer) Write(b []byte) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	p.send(b)
}

// send is called only from Write.
func (p *Packetizer) send(b []byte) {
	p.out(b, p.stamp)
	p.stamp += p.step // ok: one writer by contract; every other access takes Lock
}

// Flush must not be called concurrently.
func (p *Packetizer) Flush() {
	p.mu.RLock()
	p.flushes++ // ok: one writer by contract
	p.mu.RUnlock()
}

func (p *Packetizer) Skip(n uint32) {
	p.mu.Lock()
	p.stamp += n
	p.step = n
	p.mu.Unlock()
}

func (p *Packetizer) Reset(out func([]byte, uint32)) {
	p.mu.Lock()
	p.out = out
	p.stamp = 0
	p.flushes = 0
	p.mu.Unlock()
}
