// Package unlockers: a lock released through a helper (an unlocker a
// function returns, or one a *LockedOnEntry method is handed) may be
// released before a call documented as made without it; IL1005 stays
// silent there, and still reports a call the lock is plainly held at.
package unlockers

import "sync"

type Backend struct {
	mu    sync.Mutex
	state int
}

// send must not be called with b.mu held: it takes the lock.
func (b *Backend) send() {
	b.mu.Lock()
	b.state++
	b.mu.Unlock()
}

// unlockOnce releases a lock once, early or at the deferred call.
type unlockOnce func()

// UnlockEarly releases the lock now; the deferred call then does nothing.
func (u unlockOnce) UnlockEarly() { u() }

// lockAndGetUnlock locks b.mu and returns what releases it.
func (b *Backend) lockAndGetUnlock() unlockOnce {
	b.mu.Lock()
	var once sync.Once
	return func() { once.Do(b.mu.Unlock) }
}

// Start releases through the unlocker before sending.
func (b *Backend) Start() {
	unlock := b.lockAndGetUnlock()
	defer unlock()
	b.state = 1
	b.stateMachineLockedOnEntry(unlock)
}

// stateMachineLockedOnEntry is called with b.mu held; it releases it
// through unlock.
func (b *Backend) stateMachineLockedOnEntry(unlock unlockOnce) {
	defer unlock()
	b.state++
	unlock.UnlockEarly()
	b.send() // ok: released through the unlocker it was handed
}

// Restart releases through the unlocker a helper returned.
func (b *Backend) Restart() {
	b.mu.Lock()
	u := unlockOnce(b.mu.Unlock)
	b.state = 0
	u.UnlockEarly()
	b.send() // ok: released through the unlocker
}

// releaser releases the lock it was built with.
type releaser struct{ mu *sync.Mutex }

func (r releaser) Release() { r.mu.Unlock() }

// Stop releases through an object's method before sending.
func (b *Backend) Stop() {
	b.mu.Lock()
	r := releaser{&b.mu}
	b.state = -1
	r.Release()
	b.send() // ok: released through the releaser
}

// resetLockedOnEntry is handed the release of b.mu and defers it.
func (b *Backend) resetLockedOnEntry(unlock func()) {
	defer unlock()
	b.state = 0
	b.send() // ok: the lock's release is the caller's helper: unknown here
}

// Reset hands the release to resetLockedOnEntry.
func (b *Backend) Reset() {
	b.mu.Lock()
	b.resetLockedOnEntry(b.mu.Unlock)
}

// Flush holds b.mu plainly: still reported.
func (b *Backend) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.send() // want `call to b.send while holding b.mu, which its documentation says must not be held`
}

// FlushAfterUnlocker releases an unlocker only after the call: still
// reported.
func (b *Backend) FlushAfterUnlocker() {
	b.mu.Lock()
	u := unlockOnce(b.mu.Unlock)
	b.send() // want `call to b.send while holding b.mu, which its documentation says must not be held`
	u.UnlockEarly()
}
