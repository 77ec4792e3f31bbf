package bad

import "sync"

type Counter struct {
	mu    sync.Mutex
	count int
	name  string
}

func NewCounter(name string) *Counter {
	c := &Counter{name: name}
	c.count = 1 // ok: constructor
	return c
}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.count++
	c.mu.Unlock()
}

func (c *Counter) Add(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.count += n
}

func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.count
}

func (c *Counter) Reset() {
	c.count = 0 // want `field c.count written without holding c.mu \(held at 3 of 3 other accesses\)`
}

// Name reads a field that is only written by the constructor: silent.
func (c *Counter) Name() string { return c.name }

type Registry struct {
	mu    sync.RWMutex
	items map[string]int
	list  []string
}

func (r *Registry) Put(k string, v int) {
	r.mu.Lock()
	r.items[k] = v
	r.list = append(r.list, k)
	r.mu.Unlock()
}

func (r *Registry) Get(k string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.items[k]
}

func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.items) + len(r.list)
}

func (r *Registry) Drop(k string) {
	delete(r.items, k) // want `field r.items written without holding r.mu \(held at 3 of 3 other accesses\)`
}

func (r *Registry) Keys() []string {
	r.mu.RLock()
	out := append([]string(nil), r.list...)
	r.mu.RUnlock()
	return out
}

// Last implements no interface: IL1008, not IL1009.
func (r *Registry) Last() string {
	l := r.list // want `field r.list read without holding r.mu in exported method Last, while every write of it holds it \(held at 4 of 4 other accesses\)$`
	return l[len(l)-1]
}

type Gauge struct {
	mu  sync.Mutex
	val int
}

func (g *Gauge) Set(v int) { g.mu.Lock(); g.val = v; g.mu.Unlock() }

func (g *Gauge) Get() int { g.mu.Lock(); defer g.mu.Unlock(); return g.val }

func (g *Gauge) Add(v int) { g.mu.Lock(); g.val += v; g.mu.Unlock() }

// Spawn starts a goroutine that updates the gauge without the lock.
func (g *Gauge) Spawn() {
	go func() {
		g.val-- // want `field g.val written without holding g.mu \(held at 3 of 3 other accesses\)`
	}()
}
