package good

import "sync"

// chain keeps a snapshot that readers take under stateLock; every writer
// of it also holds chainLock, which its callers take (btcd's BlockChain).
type chain struct {
	chainLock sync.RWMutex
	stateLock sync.RWMutex
	total     int
}

// connect adds n to the total.
//
// This function MUST be called with the chain state lock held (for writes).
func (b *chain) connect(n int) {
	b.stateLock.RLock()
	cur := b.total
	b.stateLock.RUnlock()
	next := cur + n
	b.stateLock.Lock()
	b.total = next // ok: chainLock, held by every caller, serializes both sections
	b.stateLock.Unlock()
}

// commit flushes n.
//
// This function MUST be called during a database write transaction which in
// turn implies the database write lock will be held.
func (b *chain) commit(n int) {
	b.stateLock.RLock()
	cur := b.total
	b.stateLock.RUnlock()
	b.stateLock.Lock()
	b.total = cur - n // ok
	b.stateLock.Unlock()
}

func (b *chain) Connect(n int) {
	b.chainLock.Lock()
	defer b.chainLock.Unlock()
	b.connect(n)
	b.commit(n)
}
