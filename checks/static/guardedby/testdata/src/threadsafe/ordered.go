package threadsafe

import "sync"

// Driver opens connections. Registration methods must be called before
// the first call to Open. The methods are safe to call concurrently with
// each other; the ordering against Open still stands.
type Driver struct {
	mu    sync.Mutex
	funcs map[string]func()
}

// Register adds a function; it may run beside other registrations.
func (d *Driver) Register(name string, f func()) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.funcs == nil {
		d.funcs = map[string]func(){}
	}
	d.funcs[name] = f
}

// Open reads the registrations without the lock: they are done by then,
// so the claim is not broken (IL5003 silent); the opt-in inferred-guard
// rule IL1001 still sees the lock missing.
func (d *Driver) Open() int {
	n := 0
	for range d.funcs { // want `field d.funcs read without holding d.mu \(held at 3 of 3 other accesses\)`
		n++
	}
	return n
}

// Pool says that Close must be called before exit, which orders no method
// against another: the claim stands.
//
// Pool is safe for concurrent use. Close must be called before the
// process exits.
type Pool struct {
	mu   sync.Mutex
	free []int
}

// Put returns an item.
func (p *Pool) Put(i int) {
	p.mu.Lock()
	p.free = append(p.free, i)
	p.mu.Unlock()
}

// Len reads the free list without the lock.
func (p *Pool) Len() int {
	return len(p.free) // want `Len reads p.free without holding p.mu`
}

// Close drops the free list.
func (p *Pool) Close() {
	p.mu.Lock()
	p.free = nil
	p.mu.Unlock()
}
