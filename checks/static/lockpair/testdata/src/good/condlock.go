package good

import (
	"errors"
	"sync"
)

// condArchive's lock holds mu exactly when it returns nil, tryLock
// exactly when it returns true: neither leaks the lock.
type condArchive struct {
	mu  sync.RWMutex
	out []byte
}

func (a *condArchive) lock() error {
	a.mu.Lock()
	if a.out == nil {
		a.mu.Unlock()
		return errors.New("closed")
	}
	return nil
}

func (a *condArchive) unlock() { a.mu.Unlock() }

func (a *condArchive) tryLock() bool {
	if !a.mu.TryLock() {
		return false
	}
	if a.out == nil {
		a.mu.Unlock()
		return false
	}
	return true
}

func (a *condArchive) Append(b []byte) error { // want Append:"acquires a.mu"
	if err := a.lock(); err != nil {
		return err
	}
	defer a.unlock()
	a.out = append(a.out, b...)
	return nil
}

func (a *condArchive) TryAppend(b []byte) bool {
	if !a.tryLock() {
		return false
	}
	a.out = append(a.out, b...)
	a.unlock()
	return true
}

func (a *condArchive) Len() int { // want Len:"acquires a.mu .read."
	a.mu.RLock()
	defer a.mu.RUnlock()
	return len(a.out)
}
