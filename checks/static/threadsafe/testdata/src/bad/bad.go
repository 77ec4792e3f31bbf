package bad

import (
	"sync"
	"time"
)

// Cache is safe for concurrent use by multiple goroutines.
type Cache struct {
	mu      sync.Mutex
	Items   map[string]int // want `Cache is documented as "safe for concurrent use by multiple goroutines", but its exported field Items \(map\[string\]int\) is modified in place after construction \(line 34\) while callers use it without the type's lock`
	Keys    []string       // want `exported field Keys \(\[\]string\) is a slice accessed under c\.mu \(line 48\) that callers can change without the lock`
	Parent  *Cache         // ok: points to a type that claims safety
	Owner   *owner         // want `exported field Owner \(\*owner\) is a pointer accessed under c\.mu`
	Timeout time.Duration  // want `exported field Timeout \(time\.Duration\) is written after construction \(line 41\) while callers read it without the type's lock`
	seen    map[string]bool
	order   []string
	cfg     *owner
}

type owner struct{ name string }

func NewCache() *Cache {
	c := &Cache{Items: map[string]int{}, seen: map[string]bool{}, cfg: &owner{}}
	c.Timeout = time.Second // ok: constructor
	c.Items["init"] = 0     // ok: constructor
	return c
}

func (c *Cache) Add(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seen[k] = true
	c.Items[k]++
	c.order = append(c.order, k)
	c.cfg.name = k
}

func (c *Cache) SetTimeout(d time.Duration) {
	c.mu.Lock()
	c.Timeout = d
	c.mu.Unlock()
}

func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.Keys) + len(c.Owner.name)
}

func (c *Cache) Seen() map[string]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen // want `Seen returns c\.seen, a map guarded by c\.mu and modified in place \(line 33\), so callers use it without the lock; return a copy \(maps\.Clone\)`
}

func (c *Cache) Order() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order[:len(c.order)] // want `Order returns c\.order\[:len\(c\.order\)\], a slice guarded by c\.mu.*\(slices\.Clone\)`
}

func (c *Cache) Config() *owner {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cfg // want `Config returns c\.cfg, a pointer guarded by c\.mu.*\(a copy of the value\)`
}

//interleave:threadsafe
type registry struct {
	sync.RWMutex
	Names []string // want `registry is documented as thread-safe \(//interleave:threadsafe\), but its exported field Names \(\[\]string\) is written after construction \(line 79\)`
	byID  map[int]string
}

func (r *registry) Put(id int, n string) {
	r.Lock()
	r.byID[id] = n
	r.Names = append(r.Names, n)
	r.Unlock()
}

func (r *registry) All() map[int]string {
	r.RLock()
	defer r.RUnlock()
	return r.byID // want `All returns r\.byID, a map guarded by r and modified in place`
}

// Stats is goroutine-safe.
type Stats struct {
	mu    sync.Mutex
	Count int // want `exported field Count \(int\) is written after construction`
}

func (s *Stats) Inc() {
	s.mu.Lock()
	s.Count++
	s.mu.Unlock()
}

// Reset truncates order: the next Add overwrites elements that Order
// handed out.
func (c *Cache) Reset() {
	c.mu.Lock()
	c.order = c.order[:0]
	c.mu.Unlock()
}

// Shard is safe for concurrent use.
type Shard struct {
	mu    sync.Mutex
	Limit int // want `exported field Limit \(int\) is written after construction`
}

type shardSet struct{ shards []*Shard }

// SetLimit writes the field through an element of a slice: the receiver is
// shared, so this is no construction.
func (s *shardSet) SetLimit(i, n int) {
	s.shards[i].Limit = n
}

// Span is a thread-safe interval.
type Span struct {
	mu   sync.Mutex
	Lo   int // want `exported field Lo \(int\) is written after construction`
	seen int
}

func (s *Span) Touch() {
	s.mu.Lock()
	s.seen++
	s.mu.Unlock()
}

// Widen writes through the pointer: the shared value changes.
func Widen(s *Span, v Span) {
	s.Lo = v.Lo - 1
}
