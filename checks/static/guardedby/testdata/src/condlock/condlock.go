// Package condlock: lock helpers that hold the lock only when they
// report success (a nil error, or true), and their callers.
package condlock

import (
	"errors"
	"sync"
)

type Archive struct {
	mu    sync.Mutex
	out   []byte
	names map[string]int
}

// lock holds a.mu exactly when it returns nil.
func (a *Archive) lock() error {
	a.mu.Lock()
	if a.out == nil {
		a.mu.Unlock()
		return errors.New("archive closed")
	}
	return nil
}

func (a *Archive) unlock() { a.mu.Unlock() }

// tryLock holds a.mu exactly when it returns true.
func (a *Archive) tryLock() bool {
	if !a.mu.TryLock() {
		return false
	}
	if a.out == nil {
		a.mu.Unlock()
		return false
	}
	return true
}

// lockCount holds a.mu exactly when its error is nil.
func (a *Archive) lockCount() (int, error) {
	a.mu.Lock()
	if a.out == nil {
		a.mu.Unlock()
		return 0, errors.New("archive closed")
	}
	return len(a.names), nil
}

// lockLoose returns nil on a path where it has released a.mu.
func (a *Archive) lockLoose() error {
	a.mu.Lock()
	if a.out == nil {
		a.mu.Unlock()
		return nil
	}
	return nil
}

func (a *Archive) appendLocked(b []byte) { a.out = append(a.out, b...) }

func (a *Archive) recordLocked(name string) { a.names[name] = len(a.out) }

type Dest struct {
	archive *Archive
}

func (d *Dest) Put(name string, b []byte) error {
	if err := d.archive.lock(); err != nil {
		return err
	}
	defer d.archive.unlock()
	d.archive.appendLocked(b) // ok: lock returned nil
	d.archive.recordLocked(name)
	return nil
}

func (a *Archive) Close() error {
	err := a.lock()
	if err != nil {
		return err
	}
	defer a.unlock()
	a.appendLocked([]byte("end")) // ok
	return nil
}

func (a *Archive) Try(b []byte) bool {
	if !a.tryLock() {
		return false
	}
	defer a.unlock()
	a.appendLocked(b) // ok: tryLock returned true
	return true
}

func (a *Archive) Count(name string) (int, error) {
	n, err := a.lockCount()
	if err != nil {
		return 0, err
	}
	defer a.unlock()
	a.recordLocked(name) // ok
	return n, nil
}

// IgnoresError calls the Locked method whatever lock returned.
func (a *Archive) IgnoresError(b []byte) {
	_ = a.lock()
	defer a.unlock()
	a.appendLocked(b) // want `call to a.appendLocked without holding a.mu`
}

// OnFailure calls the Locked method on the error branch.
func (a *Archive) OnFailure(b []byte) error {
	if err := a.lock(); err != nil {
		a.appendLocked(b) // want `call to a.appendLocked without holding a.mu`
		return err
	}
	a.unlock()
	return nil
}

// Loose trusts a helper that may return nil without the lock.
func (a *Archive) Loose(b []byte) error {
	if err := a.lockLoose(); err != nil {
		return err
	}
	defer a.unlock()
	a.appendLocked(b) // want `call to a.appendLocked without holding a.mu`
	return nil
}

// TryIgnored calls the Locked method when tryLock failed.
func (a *Archive) TryIgnored(b []byte) {
	if a.tryLock() {
		a.unlock()
		return
	}
	a.appendLocked(b) // want `call to a.appendLocked without holding a.mu`
}
