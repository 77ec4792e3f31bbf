// Package flagsplit: a field read and written atomically only on values
// whose immutable flag says they are shared, plainly on the others.
package flagsplit

import "sync/atomic"

// Memory is shared between threads only when Shared, set at creation.
type Memory struct {
	size   uint64
	Shared bool
}

func NewMemory(shared bool, n uint64) *Memory { return &Memory{Shared: shared, size: n} }

func (m *Memory) Grow(n uint64) {
	if m.Shared {
		atomic.StoreUint64(&m.size, n)
	} else {
		m.size = n // not shared: no atomic access touches this value
	}
}

func (m *Memory) Shrink(n uint64) {
	if !m.Shared {
		m.size -= n
		return
	}
	atomic.AddUint64(&m.size, ^(n - 1))
}

func (m *Memory) Size() uint64 {
	if m.Shared {
		return atomic.LoadUint64(&m.size)
	}
	return m.size
}

// The reader loads first and branches after: its plain read runs on
// shared values too.
func (m *Memory) Peek() uint64 {
	n := m.size // want `plain read of m.size races`
	if m.Shared {
		n = atomic.LoadUint64(&m.size)
	}
	return n
}

// Toggle's flag is set after creation: a value may change sides.
type Toggle struct {
	n      uint32
	shared bool
}

func (t *Toggle) Share() { t.shared = true }

func (t *Toggle) Set(v uint32) {
	if t.shared {
		atomic.StoreUint32(&t.n, v)
	} else {
		t.n = v /* IL3002 */ // want `plain write of t.n races`
	}
}

func (t *Toggle) Get() uint32 {
	if t.shared {
		return atomic.LoadUint32(&t.n)
	}
	return atomic.LoadUint32(&t.n)
}

// Leaky loads without looking at the flag: the plain write races with it.
type Leaky struct {
	n      uint32
	shared bool
}

func NewLeaky() *Leaky { return &Leaky{shared: true} }

func (l *Leaky) Set(v uint32) {
	if l.shared {
		atomic.StoreUint32(&l.n, v)
	} else {
		l.n = v /* IL3002 */ // want `plain write of l.n races`
	}
}

func (l *Leaky) Get() uint32 { return atomic.LoadUint32(&l.n) }

// Other's plain write checks another value's flag.
type Other struct {
	n      uint32
	shared bool
}

func NewOther() *Other { return &Other{shared: true} }

func (o *Other) Copy(p *Other, v uint32) {
	if o.shared {
		atomic.StoreUint32(&o.n, v)
	} else {
		p.n = v /* IL3002 */ // want `plain write of p.n races`
	}
}

func (o *Other) Get() uint32 {
	if o.shared {
		return atomic.LoadUint32(&o.n)
	}
	return 0
}

// Same flag value on both sides: nothing separates them.
type Same struct {
	n      uint32
	shared bool
}

func NewSame() *Same { return &Same{shared: true} }

func (s *Same) Set(v uint32) {
	if s.shared {
		s.n = v /* IL3002 */ // want `plain write of s.n races`
	}
}

func (s *Same) Get() uint32 {
	if s.shared {
		return atomic.LoadUint32(&s.n)
	}
	return 0
}
