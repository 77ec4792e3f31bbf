// Package semaphore: a mutex used as a binary semaphore that a callback
// handed to foreign code (as a func value, here turned into a uintptr)
// releases, and near misses.
package semaphore

import (
	"sync"
	"unsafe"
)

// note is allocated outside Go's heap and found again from a uintptr.
type note struct {
	mu    sync.Mutex
	wait  sync.Mutex // held while fired == false
	fired bool
}

func newNote() uintptr {
	n := new(note)
	n.wait.Lock()
	return uintptr(unsafe.Pointer(n))
}

func fire(ptr uintptr) {
	n := (*note)(unsafe.Pointer(ptr))
	n.mu.Lock()
	if !n.fired {
		n.fired = true
		n.wait.Unlock()
	}
	n.mu.Unlock()
}

// notifyCallback is what the foreign side calls: args is an array of
// note pointers.
func notifyCallback(args uintptr, count int32) {
	for ; count > 0; count-- {
		fire(*(*uintptr)(unsafe.Pointer(args)))
		args += unsafe.Sizeof(uintptr(0))
	}
}

// funcPointer turns a Go func into the pointer foreign code calls.
func funcPointer[T any](f T) uintptr {
	return *(*uintptr)(unsafe.Pointer(&f))
}

// register stands for the foreign call that keeps cb and calls it later
// on another thread.
func register(cb, arg uintptr) int { return int(cb ^ arg) }

// waitForNotify re-arms the semaphore after a round that fired, then
// waits for the callback's Unlock.
func waitForNotify(ptr uintptr) int {
	n := (*note)(unsafe.Pointer(ptr))
	if n.fired {
		n.wait.Lock()
	}
	n.fired = false
	res := register(funcPointer(notifyCallback), ptr)
	if res == 0 {
		n.mu.Lock()
		fired := n.fired
		n.mu.Unlock()
		if !fired {
			n.wait.Lock()
			n.wait.Unlock()
		}
	}
	return res
}

// gate's callback takes the lock for a critical section of its own: no
// one else releases gate.hold, and the second Lock deadlocks.
type gate struct {
	hold sync.Mutex
	n    int
}

func gateCallback(ptr uintptr) {
	g := (*gate)(unsafe.Pointer(ptr))
	g.hold.Lock()
	g.n++
	g.hold.Unlock()
}

func waitGate(ptr uintptr, again bool) int {
	g := (*gate)(unsafe.Pointer(ptr))
	if again {
		g.hold.Lock()
	}
	res := register(funcPointer(gateCallback), ptr)
	if res == 0 {
		g.hold.Lock() // want `g.hold locked while already locked`
		g.hold.Unlock()
	}
	return res
}

// latch is released by drop, which reset calls directly: an unlock
// helper on the caller's goroutine, not a callback.
type latch struct {
	wait sync.Mutex
	open bool
}

func drop(ptr uintptr) {
	l := (*latch)(unsafe.Pointer(ptr))
	if !l.open {
		l.open = true
		l.wait.Unlock()
	}
}

func reset(ptr uintptr) { drop(ptr) }

func waitLatch(ptr uintptr, again bool) {
	l := (*latch)(unsafe.Pointer(ptr))
	if again {
		l.wait.Lock()
	}
	if !l.open {
		l.wait.Lock() // want `l.wait locked while already locked`
		l.wait.Unlock()
	}
}
