package bad

import "sync"

type chain struct {
	chainLock sync.RWMutex
	stateLock sync.RWMutex
	total     int
}

// check looks at the total.
//
// This function MUST be called with the chain state lock held (for reads).
func (b *chain) check(n int) {
	b.stateLock.RLock()
	cur := b.total
	b.stateLock.RUnlock()
	b.stateLock.Lock()
	b.total = cur + n // want `b\.total is written from cur`
	b.stateLock.Unlock()
}

// bump is called with the stateLock held: the lock it splits, not an
// outer one.
func (b *chain) bump() {
	b.stateLock.RLock()
	cur := b.total
	b.stateLock.RUnlock()
	b.stateLock.Lock()
	b.total = cur + 1 // want `b\.total is written from cur`
	b.stateLock.Unlock()
}

// add must not be called with the chain lock held.
func (b *chain) add(n int) {
	b.stateLock.Lock()
	cur := b.total
	b.stateLock.Unlock()
	b.stateLock.Lock()
	b.total = cur + n // want `b\.total is written from cur`
	b.stateLock.Unlock()
}
