// Package widerlockpub is the shape of a device whose control plane holds the
// device-wide dispatch lock for every message, while the request
// goroutines drain the ring under its read lock (go-fuse's vhostuser):
// a ring field written by a control message without the ring's own mu is
// excluded from the drain by the wider lock, but not from the completion
// path, which holds only mu.
//
// Here the package is not internal: its exported methods may be called
// from any importer, without the dispatch lock, so both writes are
// reported.
package widerlockpub

import "sync"

type Device struct {
	// dispatchMu is held (write) for every control message and (read)
	// while a ring is drained.
	dispatchMu sync.RWMutex
	rings      []*Ring
}

type Ring struct {
	dispatchMu *sync.RWMutex

	// mu protects all mutable ring state: the avail side (LastAvail) and
	// the used side (Used).
	mu        sync.Mutex
	LastAvail uint16
	Used      uint16
	n         int
}

func newRing(d *Device) *Ring {
	return &Ring{dispatchMu: &d.dispatchMu}
}

func NewDevice(n int) *Device {
	d := &Device{}
	for i := 0; i < n; i++ {
		r := newRing(d)
		d.rings = append(d.rings, r)
		go r.serve()
	}
	return d
}

type Server struct {
	device *Device
}

// Handle runs one control message, holding the dispatch lock throughout.
func (s *Server) Handle(op, i int, v uint16) {
	s.device.dispatchMu.Lock()
	switch op {
	case 0:
		s.device.SetAddr(i, v)
	case 1:
		s.device.SetBase(i, v)
	}
	s.device.dispatchMu.Unlock()
}

func (d *Device) SetAddr(i int, v uint16) { d.rings[i].SetAddr(v) }

func (d *Device) SetBase(i int, v uint16) {
	r := d.rings[i]
	r.LastAvail = v // ok: not on the receiver
}

// SetAddr is called only by Device.SetAddr, under the dispatch lock.
func (r *Ring) SetAddr(v uint16) {
	r.Used = v      // want `field r.Used written without holding r.mu.*push runs on the goroutine`
	r.LastAvail = v // one finding with r.Used: the same function, the same lock
}

func (r *Ring) serve() {
	for {
		for r.popBatch() {
			r.push()
		}
	}
}

func (r *Ring) popBatch() bool {
	r.dispatchMu.RLock()
	defer r.dispatchMu.RUnlock()
	return r.pop()
}

func (r *Ring) pop() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.LastAvail == uint16(r.n) {
		return false
	}
	r.LastAvail++
	return true
}

// push completes a request without the dispatch lock.
func (r *Ring) push() {
	r.mu.Lock()
	r.Used++
	r.mu.Unlock()
}
