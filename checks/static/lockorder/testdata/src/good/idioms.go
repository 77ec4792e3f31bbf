// Package good holds lock-order idioms lockorder must stay silent on.
package good

import "sync"

type account struct {
	mu  sync.Mutex
	bal int
}

type ledger struct {
	mu      sync.Mutex
	entries []int
}

type cache struct {
	mu sync.RWMutex
	m  map[string]int
}

// consistent order: ledger, then account, everywhere
func (l *ledger) post(a *account, n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a.mu.Lock()
	a.bal += n
	a.mu.Unlock()
	l.entries = append(l.entries, n)
}

func (l *ledger) audit(a *account) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return a.balance()
}

func (a *account) balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bal
}

// two instances of one class: not reported (see doc.go)
func transfer(from, to *account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.bal -= n
	to.bal += n
}

// released before taking the other lock: no order at all
func (a *account) snapshot(l *ledger) {
	a.mu.Lock()
	n := a.bal
	a.mu.Unlock()
	l.mu.Lock()
	l.entries = append(l.entries, n)
	l.mu.Unlock()
}

// read locks on both sides of both orders cannot deadlock two goroutines
func readBoth(c *cache, d *other) {
	c.mu.RLock()
	d.mu.RLock()
	d.mu.RUnlock()
	c.mu.RUnlock()
}

type other struct{ mu sync.RWMutex }

func readBothReversed(c *cache, d *other) {
	d.mu.RLock()
	c.mu.RLock()
	c.mu.RUnlock()
	d.mu.RUnlock()
}

// try lock never waits
func (a *account) tryBoth(l *ledger) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a.mu.TryLock() {
		a.mu.Unlock()
	}
}

func (a *account) thenLedger(l *ledger) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if l.mu.TryLock() {
		l.mu.Unlock()
	}
}

// in another goroutine: the lock is not held there
func (l *ledger) async(a *account) {
	l.mu.Lock()
	defer l.mu.Unlock()
	go a.balance()
}

// sync.Once body runs under whoever calls Do; not a nested acquisition
func (a *account) lazy(once *sync.Once, l *ledger) {
	a.mu.Lock()
	defer a.mu.Unlock()
	once.Do(func() {
		l.mu.Lock()
		l.mu.Unlock()
	})
}

// in and out are two halves of one conn: two classes, not one.
type half struct{ sync.Mutex }

type conn struct {
	hs      sync.Mutex
	in, out half
}

func (c *conn) readPath() {
	c.in.Lock()
	c.hs.Lock()
	c.hs.Unlock()
	c.in.Unlock()
}

func (c *conn) writePath() {
	c.hs.Lock()
	c.out.Lock()
	c.out.Unlock()
	c.hs.Unlock()
}
