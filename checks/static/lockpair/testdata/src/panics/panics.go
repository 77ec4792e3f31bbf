package panics

import "sync"

type reg struct {
	mu sync.Mutex
	m  map[string]int
}

func (r *reg) add(k string) {
	r.mu.Lock()
	if _, dup := r.m[k]; dup {
		panic("duplicate " + k) // want `r.mu locked at line 11 is still held at this panic`
	}
	r.m[k] = 1
	r.mu.Unlock()
}

func (r *reg) addDeferred(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.m[k]; dup {
		panic("duplicate " + k) // ok: the deferred unlock runs while panicking
	}
	r.m[k] = 1
}
