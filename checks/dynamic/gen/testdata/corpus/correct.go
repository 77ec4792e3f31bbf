package corpus

import (
	"sort"
	"sync"
	"sync/atomic"
)

// SafeMap is a string-to-int map, safe for concurrent use.
type SafeMap struct {
	mu sync.Mutex
	m  map[string]int
}

// NewSafeMap returns an empty map.
func NewSafeMap() *SafeMap { return &SafeMap{m: map[string]int{}} }

// Set maps k to v.
func (s *SafeMap) Set(k string, v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] = v
}

// Get returns the value of k.
func (s *SafeMap) Get(k string) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[k]
	return v, ok
}

// Add adds n to k's value and returns the sum.
func (s *SafeMap) Add(k string, n int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[k] += n
	return s.m[k]
}

// Delete removes k; it reports whether k was there.
func (s *SafeMap) Delete(k string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.m[k]
	delete(s.m, k)
	return ok
}

// Keys returns the keys, sorted.
func (s *SafeMap) Keys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.m))
	for k := range s.m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// List is a list of strings whose readers never lock: writers copy it. The
// zero value is an empty list, safe for concurrent use.
type List struct {
	mu  sync.Mutex // serializes writers
	cur atomic.Pointer[[]string]
}

// Append adds s at the end and returns the new length.
func (l *List) Append(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	var old []string
	if p := l.cur.Load(); p != nil {
		old = *p
	}
	next := make([]string, len(old)+1)
	copy(next, old)
	next[len(old)] = s
	l.cur.Store(&next)
	return len(next)
}

// RemoveFirst removes the first s; it reports whether there was one.
func (l *List) RemoveFirst(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.cur.Load()
	if p == nil {
		return false
	}
	for i, x := range *p {
		if x == s {
			next := append(append([]string(nil), (*p)[:i]...), (*p)[i+1:]...)
			l.cur.Store(&next)
			return true
		}
	}
	return false
}

// Values returns the list; the caller must not modify it.
func (l *List) Values() []string {
	if p := l.cur.Load(); p != nil {
		return *p
	}
	return nil
}

// Gauge is a level that only atomics guard: every method is one atomic
// operation or a compare-and-swap loop on the one word. It is safe for
// concurrent use by multiple goroutines.
type Gauge struct {
	cur atomic.Int64
}

// Add adds d to the level and returns the new level.
func (g *Gauge) Add(d int64) int64 { return g.cur.Add(d) }

// Raise lifts the level to at least x and returns the level.
func (g *Gauge) Raise(x int64) int64 {
	for {
		v := g.cur.Load()
		if v >= x {
			return v
		}
		if g.cur.CompareAndSwap(v, x) {
			return x
		}
	}
}

// Current is the level.
func (g *Gauge) Current() int64 { return g.cur.Load() }

// Set is a set of names; Add checks and inserts under one lock. It is safe
// for concurrent use.
type Set struct {
	mu    sync.Mutex
	names map[string]bool
}

// NewSet returns an empty set.
func NewSet() *Set { return &Set{names: map[string]bool{}} }

// Add inserts name; it reports whether name was new.
func (s *Set) Add(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.names[name] {
		return false
	}
	s.names[name] = true
	return true
}

// Len is the number of names.
func (s *Set) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.names)
}
