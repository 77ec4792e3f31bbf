package bad

import "sync"

// Packetizer's Write is a single writer by contract, but Stamp reads the
// stamp under the read lock: the contract does not exclude it.
type Packetizer struct {
	mu    sync.RWMutex
	stamp uint32
	out   func([]byte, uint32)
}

// Write stamps and sends one frame. It is not thread safe.
func (p *Packetizer) Write(b []byte) {
	p.mu.RLock()
	p.out(b, p.stamp)
	p.stamp++ // want `field p.stamp written while holding only the read lock p.mu`
	p.mu.RUnlock()
}

func (p *Packetizer) Stamp() uint32 {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.stamp
}

func (p *Packetizer) Skip(n uint32) {
	p.mu.Lock()
	p.stamp += n
	p.mu.Unlock()
}

// Muxer's helper is reached from Write, a single writer by contract, and
// from WriteRaw, which promises nothing: the two can run at once.
type Muxer struct {
	mu    sync.RWMutex
	stamp uint32
	out   func([]byte, uint32)
}

// Write must not be called concurrently.
func (m *Muxer) Write(b []byte) {
	m.mu.RLock()
	m.emit(b, 1)
	m.mu.RUnlock()
}

func (m *Muxer) WriteRaw(b []byte, step uint32) {
	m.mu.RLock()
	m.emit(b, step)
	m.mu.RUnlock()
}

func (m *Muxer) emit(b []byte, step uint32) {
	m.out(b, m.stamp)
	m.stamp += step // want `field m.stamp written while holding only the read lock m.mu`
}

func (m *Muxer) Skip(n uint32) {
	m.mu.Lock()
	m.stamp += n
	m.mu.Unlock()
}
