package corpus

import (
	"sort"
	"sync"
	"sync/atomic"
)

// UnsyncMap is a string-to-int map. It is safe for concurrent use.
//
// (It is not: nothing guards the map.)
type UnsyncMap struct {
	m map[string]int
}

// NewUnsyncMap returns an empty map.
func NewUnsyncMap() *UnsyncMap { return &UnsyncMap{m: map[string]int{}} }

// Set maps k to v.
func (u *UnsyncMap) Set(k string, v int) { u.m[k] = v }

// Get returns the value of k.
func (u *UnsyncMap) Get(k string) (int, bool) {
	v, ok := u.m[k]
	return v, ok
}

// Len is the number of keys.
func (u *UnsyncMap) Len() int { return len(u.m) }

// Registry is a set of names. Registry is safe for use by multiple
// goroutines.
//
// (Add checks and inserts under two separate critical sections.)
type Registry struct {
	mu    sync.Mutex
	names map[string]bool
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{names: map[string]bool{}} }

// Contains reports whether name is registered.
func (r *Registry) Contains(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.names[name]
}

// Add registers name; it reports whether name was new.
func (r *Registry) Add(name string) bool {
	if r.Contains(name) {
		return false
	}
	r.insert(name)
	return true
}

func (r *Registry) insert(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names[name] = true
}

// Len is the number of names.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.names)
}

// SortedInts keeps integers in ascending order. It is safe for concurrent
// use.
//
// (Values hands out the internal slice, which Insert shifts in place.)
type SortedInts struct {
	mu sync.Mutex
	xs []int
}

// Insert adds x in order.
func (s *SortedInts) Insert(x int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := sort.SearchInts(s.xs, x)
	s.xs = append(s.xs, 0)
	copy(s.xs[i+1:], s.xs[i:])
	s.xs[i] = x
}

// Values returns the integers in order.
func (s *SortedInts) Values() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.xs
}

// Labels maps names to labels; safe for concurrent use.
//
// (All hands out the internal map.)
type Labels struct {
	mu sync.RWMutex
	m  map[string]string
}

// NewLabels returns no labels.
func NewLabels() *Labels { return &Labels{m: map[string]string{}} }

// Set labels k with v.
func (l *Labels) Set(k, v string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.m[k] = v
}

// All returns every label.
func (l *Labels) All() map[string]string {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.m
}

// Balance holds two amounts that move between each other. It is safe for
// concurrent use.
//
// (ToLeft and ToRight take the two locks in opposite orders.)
type Balance struct {
	left, right     sync.Mutex
	inLeft, inRight int
}

// NewBalance starts with n on each side.
func NewBalance(n int) *Balance { return &Balance{inLeft: n, inRight: n} }

// ToLeft moves n from the right side to the left.
func (b *Balance) ToLeft(n int) {
	b.left.Lock()
	defer b.left.Unlock()
	b.right.Lock()
	defer b.right.Unlock()
	b.inRight -= n
	b.inLeft += n
}

// ToRight moves n from the left side to the right.
func (b *Balance) ToRight(n int) {
	b.right.Lock()
	defer b.right.Unlock()
	b.left.Lock()
	defer b.left.Unlock()
	b.inLeft -= n
	b.inRight += n
}

// Left is the amount on the left.
func (b *Balance) Left() int {
	b.left.Lock()
	defer b.left.Unlock()
	return b.inLeft
}

// Hits counts events.
//
// (Inc reads and writes the atomic in two steps.)
//
//interleave:threadsafe
type Hits struct {
	n atomic.Int64
}

// Inc counts one event and returns the new count.
func (h *Hits) Inc() int64 {
	v := h.n.Load()
	h.n.Store(v + 1)
	return v + 1
}

// Count is the number of events.
func (h *Hits) Count() int64 { return h.n.Load() }
