package good

import (
	"sync"
)

var cache sync.Map

func build(k string) int { return len(k) }

// LoadOrStore is the fix.
func get(k string) any {
	if v, ok := cache.Load(k); ok {
		return v
	}
	v, _ := cache.LoadOrStore(k, build(k))
	return v
}

// Load and Store under one lock held around both.
type registry struct {
	mu    sync.Mutex
	items sync.Map
}

func (r *registry) add(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.items.Load(k); !ok {
		r.items.Store(k, 1) // ok: r.mu held since the Load
	}
}

// Different keys.
func move(m *sync.Map, from, to string) {
	if v, ok := m.Load(from); ok {
		m.Store(to, v) // ok: another key
	}
}

// The Store does not depend on the Load.
func overwrite(m *sync.Map, k string) int {
	n := 0
	if v, ok := m.Load(k); ok {
		n = v.(int)
	}
	m.Store(k, 42) // ok: unconditional, independent of the loaded value
	return n
}

// Keys computed by calls are not compared.
func next() string { return "k" }

func callKeys(m *sync.Map) {
	if _, ok := m.Load(next()); !ok {
		m.Store(next(), 1) // ok
	}
}

// The key variable changes between the Load and the Store.
func rekey(m *sync.Map, k string) {
	_, ok := m.Load(k)
	if !ok {
		k = k + "-fallback"
		m.Store(k, 1) // ok: another key by now
	}
}
