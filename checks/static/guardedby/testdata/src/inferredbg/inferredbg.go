// Package inferredbg: an undocumented field locked at only two of three
// accesses is reported (IL1007) when a goroutine of the package writes it
// and an exported method reads it; the same proportions with no
// goroutine stay silent.
package inferredbg

import "sync"

type Tracker struct {
	mu     sync.Mutex
	active int
}

func NewTracker() *Tracker {
	t := &Tracker{}
	go t.watch()
	return t
}

func (t *Tracker) watch() {
	for {
		t.mu.Lock()
		t.active++
		t.mu.Unlock()
	}
}

func (t *Tracker) Reset() {
	t.mu.Lock()
	t.active = 0
	t.mu.Unlock()
}

func (t *Tracker) Active() int {
	return t.active // want `field t.active read without holding t.mu \(held at 2 of 3 other accesses\); watch runs on the goroutine.* \(and 1 more access, listed as related\)`
}

func (t *Tracker) Peek() int {
	return t.active // related position of the finding at line 35 (same field, lock and rule)
}

// Ledger has the same shape and no goroutine: silent.
type Ledger struct {
	mu    sync.Mutex
	total int
}

func (l *Ledger) Add(n int) {
	l.mu.Lock()
	l.total += n
	l.mu.Unlock()
}

func (l *Ledger) Sub(n int) {
	l.mu.Lock()
	l.total -= n
	l.mu.Unlock()
}

func (l *Ledger) Total() int { return l.total } // ok: no goroutine evidence, below IL1001's 75%

func (l *Ledger) Peek() int { return l.total } // ok

// Listener starts a goroutine while holding l.mu and waits for it before
// unlocking: the goroutine runs under the starter's lock.
type Listener struct {
	mu       sync.Mutex
	channels map[string]bool
}

func (l *Listener) Resync() {
	l.mu.Lock()
	defer l.mu.Unlock()
	done := make(chan int)
	go func() {
		n := 0
		for range l.channels { // ok: l.mu is held by the starter until done
			n++
		}
		done <- n
	}()
	<-done
}

func (l *Listener) Listen(ch string) {
	l.mu.Lock()
	l.channels[ch] = true
	l.mu.Unlock()
}

func (l *Listener) Unlisten(ch string) {
	l.mu.Lock()
	delete(l.channels, ch)
	l.mu.Unlock()
}

// Dispatcher starts the handler's goroutine under the read lock and does
// not wait for it: the goroutine outlives the lock.
type Dispatcher struct {
	mu      sync.RWMutex
	handler func()
}

func (d *Dispatcher) Dispatch() {
	d.mu.RLock()
	go func() {
		d.handler() // want `field d.handler read without holding d.mu.*Dispatch\$1 runs on the goroutine started by the go statement`
	}()
	d.mu.RUnlock()
}

func (d *Dispatcher) SetHandler(h func()) {
	d.mu.Lock()
	d.handler = h
	d.mu.Unlock()
}

func (d *Dispatcher) Handler() func() {
	d.mu.RLock()
	defer d.mu.RUnlock()
	return d.handler
}
