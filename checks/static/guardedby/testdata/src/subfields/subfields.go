// Package subfields: a struct-valued field whose members are written
// under a lock through a pointer to the whole field (n := &d.net;
// n.port = p), while another member is set only by the constructor
// (a network device's bind).
package subfields

import "sync"

type Bind interface {
	Open(port uint16) (uint16, error)
	Size() int
	Close() error
}

type Device struct {
	ipcMutex sync.RWMutex
	net      struct {
		sync.RWMutex
		bind   Bind
		port   uint16
		fwmark uint32
	}
	queue chan []byte
}

func NewDevice(b Bind) *Device {
	d := &Device{queue: make(chan []byte, 8)}
	d.net.bind = b
	go d.routine()
	return d
}

func (d *Device) routine() {
	for buf := range d.queue {
		_ = buf
		_ = d.Size()
	}
}

// Size reads the bind, written only by NewDevice.
func (d *Device) Size() int {
	return d.net.bind.Size() // ok: no write of net.bind after construction
}

// update writes port through a pointer to the whole of net, and reads
// bind through it: the position's write is of port, not bind.
func (d *Device) update() error {
	n := &d.net
	p, err := n.bind.Open(n.port)
	n.port = p
	if n.fwmark != 0 {
		n.fwmark = 0
	}
	return err
}

func (d *Device) SetPort(p uint16) error {
	d.ipcMutex.Lock()
	defer d.ipcMutex.Unlock()
	d.net.port = p
	return d.update()
}

func (d *Device) Get() (uint16, uint32) {
	d.ipcMutex.RLock()
	defer d.ipcMutex.RUnlock()
	return d.net.port, d.net.fwmark
}

func (d *Device) SetMark(m uint32) {
	d.ipcMutex.Lock()
	defer d.ipcMutex.Unlock()
	d.net.fwmark = m
}

func (d *Device) Mark() uint32 {
	d.ipcMutex.RLock()
	defer d.ipcMutex.RUnlock()
	return d.net.fwmark
}

func (d *Device) Bound() bool {
	d.ipcMutex.RLock()
	defer d.ipcMutex.RUnlock()
	return d.net.bind != nil && d.net.port != 0
}

// Port reads the port that SetPort writes under ipcMutex, without it.
func (d *Device) Port() uint16 {
	return d.net.port // want `field d.net read without holding d.ipcMutex in exported method Port`
}
