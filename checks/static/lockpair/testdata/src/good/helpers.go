package good

import (
	"errors"
	"sync"
)

// lock is a helper that returns holding s.mu.
func (s *S) lock() { s.mu.Lock() }

func (s *S) unlock() { s.mu.Unlock() }

func (s *S) useHelpers() {
	s.lock()
	s.n++
	s.unlock()
	s.lock()
	defer s.unlock()
	s.n++
}

// grab takes s.rw for reading; it returns with the lock held.
func (s *S) grab(fast bool) {
	if fast {
		s.rw.RLock()
		return
	}
	s.rw.RLock()
}

// lockIfReady returns true with s.mu held, false without.
func (s *S) lockIfReady() bool {
	s.mu.Lock()
	if !s.ready {
		s.mu.Unlock()
		return false
	}
	return true
}

// callerHolds is called with s.mu held: unlock around the slow call.
func (s *S) callerHolds() {
	s.mu.Unlock()
	slow()
	s.mu.Lock()
}

func slow() {}

func (s *S) lockReturnsUnlock() func() {
	s.mu.Lock()
	return s.mu.Unlock
}

func (s *S) useReturnedUnlock() {
	unlock := s.lockReturnsUnlock()
	s.n++
	unlock()
	s.mu.Lock()
	s.mu.Unlock()
}

type tx struct {
	closemu sync.RWMutex
	done    bool
}

func (t *tx) release() { t.closemu.RUnlock() }

// grabConn hands back the function that releases closemu.
func (t *tx) grabConn() (func(), error) {
	t.closemu.RLock()
	if t.done {
		t.closemu.RUnlock()
		return nil, nil
	}
	return t.release, nil
}

type db struct {
	rwlock sync.Mutex
	opened bool
}

type rwtx struct{ db *db }

var errClosed = errors.New("closed")

// beginRW keeps the writer lock on success: the transaction releases it.
func (d *db) beginRW() (*rwtx, error) {
	d.rwlock.Lock()
	if !d.opened {
		d.rwlock.Unlock()
		return nil, errClosed
	}
	return &rwtx{d}, nil
}

type bdb struct {
	rwlock   sync.Mutex
	metalock sync.Mutex
	readOnly bool
	opened   bool
	data     []byte
}

// beginRWTx mirrors bbolt: the writer lock stays held on success.
func (d *bdb) beginRWTx() (*rwtx, error) {
	if d.readOnly {
		return nil, errClosed
	}
	d.rwlock.Lock()
	d.metalock.Lock()
	defer d.metalock.Unlock()
	if !d.opened {
		d.rwlock.Unlock()
		return nil, errClosed
	}
	if d.data == nil {
		d.rwlock.Unlock()
		return nil, errClosed
	}
	return &rwtx{}, nil
}
