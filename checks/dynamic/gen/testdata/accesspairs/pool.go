// Package txpool is a kernel for gen's access pairs, in the shapes of two
// real unguarded-field bugs (written for this kernel): Pool.Add looks a
// hash up in p.all without p.mu while Clear replaces p.all under it (a
// transaction pool's lookup table); Chain.Process reads the current hook
// through an unexported helper without c.mu while AddHook rewrites it under
// it (a client's hook chain). Each has four readers that take the lock, so
// a changed method's usual partners (the readers first) never pair the two
// sides. SafePool is the mirror with the lookup under the lock: no pair of
// its methods races.
package txpool

import "sync"

// Pool holds pending transactions by hash.
type Pool struct {
	mu  sync.Mutex
	all map[string]int
	seq int
}

// NewPool returns an empty pool.
func NewPool() *Pool { return &Pool{all: map[string]int{}} }

// Add adds a transaction; false when the hash is known.
func (p *Pool) Add(hash string) bool {
	if _, ok := p.all[hash]; ok { // unguarded: Clear replaces p.all
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.seq++
	p.all[hash] = p.seq
	return true
}

// Clear drops every transaction.
func (p *Pool) Clear() {
	p.mu.Lock()
	p.all = map[string]int{}
	p.mu.Unlock()
}

// Len is the number of transactions.
func (p *Pool) Len() int { p.mu.Lock(); defer p.mu.Unlock(); return len(p.all) }

// Seq is the last sequence number given.
func (p *Pool) Seq() int { p.mu.Lock(); defer p.mu.Unlock(); return p.seq }

// Empty reports whether the pool holds nothing.
func (p *Pool) Empty() bool { p.mu.Lock(); defer p.mu.Unlock(); return len(p.all) == 0 }

// Known is how many hashes were ever added.
func (p *Pool) Known() int { p.mu.Lock(); defer p.mu.Unlock(); return p.seq }

// SafePool is Pool with the lookup under the lock.
type SafePool struct {
	mu  sync.Mutex
	all map[string]int
	seq int
}

// NewSafePool returns an empty pool.
func NewSafePool() *SafePool { return &SafePool{all: map[string]int{}} }

// Add adds a transaction; false when the hash is known.
func (p *SafePool) Add(hash string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.all[hash]; ok {
		return false
	}
	p.seq++
	p.all[hash] = p.seq
	return true
}

// Clear drops every transaction.
func (p *SafePool) Clear() {
	p.mu.Lock()
	p.all = map[string]int{}
	p.mu.Unlock()
}

// Len is the number of transactions.
func (p *SafePool) Len() int { p.mu.Lock(); defer p.mu.Unlock(); return len(p.all) }

// Seq is the last sequence number given.
func (p *SafePool) Seq() int { p.mu.Lock(); defer p.mu.Unlock(); return p.seq }

// Empty reports whether the pool holds nothing.
func (p *SafePool) Empty() bool { p.mu.Lock(); defer p.mu.Unlock(); return len(p.all) == 0 }

// Known is how many hashes were ever added.
func (p *SafePool) Known() int { p.mu.Lock(); defer p.mu.Unlock(); return p.seq }

// hook is one stage of a chain.
type hook struct {
	name string
	next *hook
}

// Chain runs commands through its hooks.
type Chain struct {
	mu      sync.Mutex
	current *hook
	n       int
}

// NewChain returns a chain with no hooks.
func NewChain() *Chain { return &Chain{current: &hook{name: "base"}} }

// Process runs cmd through the hooks and says which ran first.
func (c *Chain) Process(cmd string) string { return c.process(cmd) }

// process reads c.current without c.mu: AddHook rewrites it under it.
func (c *Chain) process(cmd string) string {
	return c.current.name + ":" + cmd
}

// AddHook puts a hook in front of the others.
func (c *Chain) AddHook(name string) {
	c.mu.Lock()
	c.current = &hook{name: name, next: c.current}
	c.n++
	c.mu.Unlock()
}

// Hooks is the number of hooks added.
func (c *Chain) Hooks() int { c.mu.Lock(); defer c.mu.Unlock(); return c.n }

// First is the first hook's name.
func (c *Chain) First() string { c.mu.Lock(); defer c.mu.Unlock(); return c.current.name }

// Empty reports whether no hook was added.
func (c *Chain) Empty() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.n == 0 }

// Depth is the chain's length.
func (c *Chain) Depth() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := 0
	for h := c.current; h != nil; h = h.next {
		d++
	}
	return d
}
