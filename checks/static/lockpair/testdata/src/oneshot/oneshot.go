// Package oneshot: a mutex allocated per call as a one-shot signal,
// woken by a callback handed to foreign code and to context.AfterFunc,
// and freed by the function while it is held (modernc sqlite's retry).
package oneshot

import (
	"context"
	"sync"
	"sync/atomic"
	"unsafe"
)

type mutex struct {
	sync.Mutex
	woken int32
}

func (m *mutex) wake() bool {
	if !atomic.CompareAndSwapInt32(&m.woken, 0, 1) {
		return false
	}
	m.Unlock()
	return true
}

var heap = map[uintptr]unsafe.Pointer{}

// alloc and free stand for the C allocator.
func alloc(size uintptr) uintptr {
	p := unsafe.Pointer(&make([]byte, size)[0])
	heap[uintptr(p)] = p
	return uintptr(p)
}

func free(p uintptr) { delete(heap, p) }

func unlockNotify(args uintptr, n int32) {
	for i := int32(0); i < n; i++ {
		(*mutex)(unsafe.Pointer(*(*uintptr)(unsafe.Pointer(args)))).wake()
		args += unsafe.Sizeof(uintptr(0))
	}
}

// register stands for the foreign call that keeps cb and calls it later
// on another thread; it returns 6 when waiting would deadlock.
func register(cb, arg uintptr) int { return int(cb ^ arg) }

type conn struct {
	waitCtx context.Context
	waiting atomic.Bool
}

// retry waits for the callback or the context, then frees the mutex
// while it is held: no one locks it again.
func (c *conn) retry() error {
	mu := alloc(unsafe.Sizeof(mutex{}))
	m := (*mutex)(unsafe.Pointer(mu))
	m.Lock()
	rc := register(*(*uintptr)(unsafe.Pointer(&struct{ f func(uintptr, int32) }{unlockNotify})), mu)
	if rc == 6 {
		m.Unlock()
		free(mu)
		return context.Canceled
	}
	ctx := c.waitCtx
	var woke bool
	var done chan struct{}
	var stop func() bool
	if ctx != nil && ctx.Done() != nil {
		done = make(chan struct{})
		stop = context.AfterFunc(ctx, func() {
			woke = m.wake()
			close(done)
		})
	}
	c.waiting.Store(true)
	m.Lock()
	c.waiting.Store(false)
	if stop != nil && !stop() {
		<-done
	}
	register(0, 0)
	free(mu)
	if woke {
		return ctx.Err()
	}
	return nil
}

// counted hands a callback that locks m for a critical section of its
// own: no signal, so the return that keeps m is reported.
func (c *conn) counted(n *int) error {
	mu := alloc(unsafe.Sizeof(mutex{}))
	m := (*mutex)(unsafe.Pointer(mu))
	m.Lock()
	if register(0, mu) == 6 {
		m.Unlock()
		return context.Canceled
	}
	stop := context.AfterFunc(c.waitCtx, func() {
		m.Lock()
		*n++
		m.Unlock()
	})
	defer stop()
	return c.waitCtx.Err() // want `m.Mutex locked at line \d+ is still held at this return`
}

// twoMutexes wakes one mutex and keeps the other: the kept one is no
// signal.
func (c *conn) twoMutexes() {
	m := (*mutex)(unsafe.Pointer(alloc(unsafe.Sizeof(mutex{}))))
	held := (*mutex)(unsafe.Pointer(alloc(unsafe.Sizeof(mutex{}))))
	m.Lock()
	held.Lock()
	if register(0, 0) == 6 {
		held.Unlock()
		return
	}
	stop := context.AfterFunc(c.waitCtx, func() { m.wake() })
	m.Lock()
	stop()
	free(uintptr(unsafe.Pointer(m)))
	return // want `held locked at line \d+ is still held at this return`
}
