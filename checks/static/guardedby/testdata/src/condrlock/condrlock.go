// Package condrlock: a reader that takes the read lock unless it runs
// inside a callback the writer makes with the lock held (a transactional
// file's ReadAt called back from Rollback): the function decides when to
// lock, and its unlocked path is not a forgotten lock.
package condrlock

import "sync"

type Filer struct {
	mu         sync.RWMutex
	cbMu       sync.RWMutex
	inCallback bool
	level      int
	data       []byte
	after      func() error
}

func New(after func() error) *Filer {
	f := &Filer{after: after}
	go f.flusher()
	return f
}

func (f *Filer) flusher() {
	_, _ = f.ReadAt(make([]byte, 1), 0)
}

func (f *Filer) ReadAt(b []byte, off int64) (int, error) {
	f.cbMu.RLock()
	defer f.cbMu.RUnlock()
	if !f.inCallback {
		f.mu.RLock()
		defer f.mu.RUnlock()
	}
	if f.level == 0 { // ok: locked unless called back from Rollback
		return 0, nil
	}
	return copy(b, f.data[off:]), nil
}

func (f *Filer) Begin() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.level++
}

func (f *Filer) Rollback() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.level == 0 {
		return nil
	}
	f.level--
	if f.after != nil {
		f.cbMu.Lock()
		f.inCallback = true
		f.cbMu.Unlock()
		defer func() {
			f.cbMu.Lock()
			f.inCallback = false
			f.cbMu.Unlock()
		}()
		return f.after()
	}
	return nil
}

func (f *Filer) Level() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.level
}

func (f *Filer) InTx() bool {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.level > 0
}

func (f *Filer) Nested() bool {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.level > 1
}

func (f *Filer) Commit() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.level > 0 {
		f.level--
	}
}

// Depth locks on one path only, and reads again after the unlock.
func (f *Filer) Depth(check bool) int {
	if check {
		f.mu.RLock()
		n := f.level
		f.mu.RUnlock()
		_ = n
	}
	return f.level // want `field f.level read without holding f.mu in exported method Depth.*\(and 1 more access, listed as related\)`
}

// Peek reads before a lock it takes on one path.
func (f *Filer) Peek(wait bool) int {
	n := f.level // reported as Depth's related access (one finding per field and rule)
	if wait {
		f.mu.Lock()
		defer f.mu.Unlock()
	}
	return n
}
