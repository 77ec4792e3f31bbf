// Package unlockfunc: helpers that lock and return the unlock function.
// The caller holds the lock until it calls what they returned.
package unlockfunc

import "sync"

type batcher struct {
	// mu guards the fields below.
	mu      sync.Mutex
	pending []int
	flushed int
}

// lockAndGetUnlock locks b.mu and returns the function that unlocks it.
func (b *batcher) lockAndGetUnlock() func() {
	b.mu.Lock()
	return b.mu.Unlock
}

// lockedScope is the closure form.
func (b *batcher) lockedScope() (unlock func()) {
	b.mu.Lock()
	return func() { b.mu.Unlock() }
}

func (b *batcher) Add(v int) {
	unlock := b.lockAndGetUnlock()
	defer unlock()
	b.pending = append(b.pending, v) // ok: held until the deferred unlock
}

func (b *batcher) Flush() []int {
	unlock := b.lockedScope()
	out := b.pending // ok
	b.pending = nil  // ok
	b.flushed += len(out)
	unlock()
	return out
}

func (b *batcher) Flushed() int {
	defer b.lockAndGetUnlock()()
	return b.flushed // ok
}

func (b *batcher) Reset() {
	unlock := b.lockAndGetUnlock()
	b.pending = nil // ok
	unlock()
	b.flushed = 0 // want `field b.flushed written without holding b.mu`
}

func (b *batcher) Size() int {
	return len(b.pending) // want `field b.pending read without holding b.mu`
}
