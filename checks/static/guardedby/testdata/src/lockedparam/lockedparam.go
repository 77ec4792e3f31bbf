// Package lockedparam: helpers that take the lock only when their caller
// says it does not hold it (smallnest/ringbuffer's setErr(err, locked)
// and readErr(locked)): `if !locked { r.mu.Lock(); defer r.mu.Unlock() }`.
// Every call passing true holds r.mu, so the accesses after the test are
// always locked. A call passing true without the lock keeps the reports.
package lockedparam

import (
	"errors"
	"io"
	"sync"
)

var errFull = errors.New("full")

type Ring struct {
	mu     sync.Mutex
	buf    []byte
	r, w   int
	full   bool
	err    error
	notify chan struct{}
}

func New(n int) *Ring { return &Ring{buf: make([]byte, n), notify: make(chan struct{}, 1)} }

func (r *Ring) setErr(err error, locked bool) error {
	if !locked {
		r.mu.Lock()
		defer r.mu.Unlock()
	}
	if r.err != nil && r.err != io.EOF {
		return r.err
	}
	if err == nil || err == errFull {
		return err
	}
	r.err = err
	r.signalLocked()
	return err
}

func (r *Ring) readErr(locked bool) error {
	if !locked {
		r.mu.Lock()
		defer r.mu.Unlock()
	}
	if r.err == io.EOF {
		if r.w == r.r && !r.full {
			return io.EOF
		}
		return nil
	}
	return r.err
}

// signalLocked must be called with r.mu held.
func (r *Ring) signalLocked() {
	select {
	case r.notify <- struct{}{}:
	default:
	}
}

func (r *Ring) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, r.readErr(false)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.readErr(true); err != nil {
		return 0, err
	}
	n := copy(p, r.buf[r.r:])
	r.r = (r.r + n) % len(r.buf)
	r.full = false
	return n, r.readErr(true)
}

func (r *Ring) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, r.setErr(nil, false)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.full {
		return 0, r.setErr(errFull, true)
	}
	n := copy(r.buf[r.w:], p)
	r.w = (r.w + n) % len(r.buf)
	r.full = r.w == r.r
	return n, r.setErr(nil, true)
}

func (r *Ring) CloseWriter() {
	r.setErr(io.EOF, false)
}

func (r *Ring) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.r, r.w, r.full = 0, 0, false
	r.err = nil
}

// A helper of the same shape with a caller that passes true without the
// lock: the accesses after the test are not always locked.
type Buf struct {
	mu  sync.Mutex
	n   int
	err error
}

func (b *Buf) status(locked bool) error {
	if !locked {
		b.mu.Lock()
		defer b.mu.Unlock()
	}
	if b.n == 0 { // want `field b\.n read without holding b\.mu`
		return b.err // one finding with b.n: the same function, the same lock
	}
	return nil
}

func (b *Buf) Add() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n++
	b.err = nil
	return b.status(true)
}

func (b *Buf) Drop() {
	b.mu.Lock()
	b.n = 0
	b.err = io.EOF
	b.mu.Unlock()
}

func (b *Buf) Peek() error { return b.status(true) } // claims a lock it does not hold

func (b *Buf) Check() error { return b.status(false) }

func (b *Buf) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

func (b *Buf) Err() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// wake performs a non-blocking send on the notify channel. Safe to call
// with r.mu held: the send never blocks. (A permission, not a
// requirement: Kick calls it without the lock.)
func (r *Ring) wake() {
	select {
	case r.notify <- struct{}{}:
	default:
	}
}

func (r *Ring) Kick() { r.wake() }

// poke must be called with r.mu held.
func (r *Ring) poke() { r.full = false }

func (r *Ring) Poke() { r.poke() } // want `call to r\.poke without holding r\.mu`
