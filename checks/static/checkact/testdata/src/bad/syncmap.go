package bad

import "sync"

var cache sync.Map

func build(k string) int { return len(k) }

func get(k string) any {
	if v, ok := cache.Load(k); ok {
		return v
	}
	v := build(k)
	cache.Store(k, v) // want `cache\.Store\(k, \.\.\.\) depends on cache\.Load\(k\) at syncmap\.go:10, and another goroutine can store the key in between \(use LoadOrStore\)`
	return v
}

func fill(m *sync.Map, k string) {
	if _, ok := m.Load(k); !ok {
		m.Store(k, build(k)) // want `m\.Store\(k, \.\.\.\) depends on m\.Load\(k\).*\(use LoadOrStore\)`
	}
}

func incr(m *sync.Map, k string) {
	v, ok := m.Load(k)
	if ok {
		m.Store(k, v.(int)+1) // want `\(use CompareAndSwap\)`
	}
}

func take(m *sync.Map, k string) any {
	v, ok := m.Load(k)
	if !ok {
		return nil
	}
	m.Delete(k) // want `m\.Delete\(k\) depends on m\.Load\(k\).*\(use LoadAndDelete or CompareAndDelete\)`
	return v
}

type registry struct {
	mu    sync.Mutex
	items sync.Map
}

// The mutex is held around the Store but not the Load.
func (r *registry) add(k string) {
	if _, ok := r.items.Load(k); ok {
		return
	}
	r.mu.Lock()
	r.items.Store(k, 1) // want `r\.items\.Store\(k, \.\.\.\) depends on r\.items\.Load\(k\)`
	r.mu.Unlock()
}
