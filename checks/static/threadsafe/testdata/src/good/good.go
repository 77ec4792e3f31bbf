package good

import (
	"log"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Cache is safe for concurrent use.
type Cache struct {
	mu      sync.Mutex
	Timeout time.Duration // ok: configuration, set only at construction
	Name    string        // ok
	Logger  *log.Logger   // ok: *log.Logger is safe for concurrent use
	OnEvict func(string)  // ok: function
	Events  chan string   // ok: channel
	Hits    atomic.Int64  // ok: typed atomic
	Ready   sync.WaitGroup
	items   map[string]int
	order   []string
	frozen  []string
	snap    map[string]int
	once    sync.Once
	cond    *sync.Cond
}

func NewCache(frozen []string) *Cache {
	c := &Cache{items: map[string]int{}, frozen: frozen, Timeout: time.Second}
	c.Name = "cache" // ok: constructor
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *Cache) Add(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k]++
	c.order = append(c.order, k)
	c.snap = maps.Clone(c.items) // copy-on-write: replaced, never modified in place
	c.cond.Broadcast()
}

// Copies are returned.
func (c *Cache) Items() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return maps.Clone(c.items)
}

func (c *Cache) Order() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.order)
}

func (c *Cache) OrderAppend() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.order...)
}

func (c *Cache) ItemsLoop() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.items))
	for k, v := range c.items {
		out[k] = v
	}
	return out
}

// Immutable after construction.
func (c *Cache) Frozen() []string { return c.frozen }

// Copy-on-write snapshot: the map is replaced, never modified.
func (c *Cache) Snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.snap
}

// TryLock and Cond wait loops.
func (c *Cache) TryLen() int {
	if !c.mu.TryLock() {
		return -1
	}
	defer c.mu.Unlock()
	return len(c.items)
}

func (c *Cache) WaitFor(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.items[k] == 0 {
		c.cond.Wait()
	}
	return c.items[k]
}

// sync.Once for lazy init.
func (c *Cache) Init() { c.once.Do(func() { c.Hits.Store(0) }) }

// Closure under the caller's lock.
func (c *Cache) With(f func(map[string]int)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(c.items)
}

// select with default.
func (c *Cache) Notify(k string) {
	select {
	case c.Events <- k:
	default:
	}
}

// unexported method may return internals to the package.
func (c *Cache) itemsLocked() map[string]int { return c.items }

// Builder is not safe for concurrent use.
type Builder struct {
	Parts []string // ok: no claim
}

// Conn is not thread-safe; callers must synchronize.
type Conn struct {
	mu   sync.Mutex
	Buf  []byte // ok: negated claim
	data map[string]int
}

func (c *Conn) Data() map[string]int { return c.data }

// Confined to one goroutine: a local value built and returned.
func build() *Cache {
	var c Cache
	c.Name = "local" // ok
	c.items = map[string]int{"a": 1}
	return &c
}

// Client is safe for concurrent use. Its exported fields are configuration:
// set before first use, read without the lock, never touched under it.
type Client struct {
	mu      sync.Mutex
	Headers map[string]string // ok: configuration
	Hosts   []string          // ok: configuration
	conns   int
}

func (c *Client) Do() int {
	c.mu.Lock()
	c.conns++
	c.mu.Unlock()
	return len(c.Headers) + len(c.Hosts)
}

// setDefaults runs once, before the client is shared.
func (c *Client) setDefaults() {
	if c.Headers == nil {
		c.Headers = map[string]string{}
	}
	c.Headers["agent"] = "x"
}

// Lazy is safe for concurrent use; Conf is lazily initialized in a sync.Once body.
type Lazy struct {
	once sync.Once
	Conf map[string]string // ok: set inside once.Do
}

func (l *Lazy) Get(k string) string {
	l.once.Do(func() {
		l.Conf = map[string]string{}
		l.Conf["a"] = "b"
	})
	return l.Conf[k]
}

// Transport is safe to use concurrently from multiple goroutines. Its
// exported fields are settings: the transport copies them into each pool
// it creates under its mutex, but never uses or changes them in place.
type Transport struct {
	mu     sync.Mutex
	Topics []string // ok: copied under the lock, not used in place
	TLS    *tlsConf // ok: copied under the lock
	pools  map[string]*pool
}

type tlsConf struct{ name string }

type pool struct {
	topics []string
	tls    *tlsConf
}

func (t *Transport) grabPool(addr string) *pool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if p := t.pools[addr]; p != nil {
		return p
	}
	p := &pool{topics: t.Topics, tls: t.TLS}
	t.pools[addr] = p
	return p
}

// Collector is thread safe. Its log is only appended to, or replaced by a
// new slice: a returned slice's elements never change.
type Collector struct {
	mu   sync.Mutex
	logs []string
}

func (c *Collector) Add(s string) {
	c.mu.Lock()
	c.logs = append(c.logs, s)
	c.mu.Unlock()
}

func (c *Collector) Clear() {
	c.mu.Lock()
	c.logs = make([]string, 0)
	c.mu.Unlock()
}

func (c *Collector) Count(s string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, l := range c.logs {
		if l == s {
			n++
		}
	}
	return n
}

func (c *Collector) Logs() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.logs // ok: append-only
}

// Meter is thread-safe; its Stats are set up by a helper the constructor
// calls, before the value is returned.
type Meter struct {
	mu    sync.Mutex
	Stats *Stats // ok: written only by collectStats, called by NewMeter
	n     int
}

type Stats struct{ hits atomic.Int64 }

func (m *Meter) collectStats() { m.Stats = &Stats{} }

func NewMeter(stats bool) *Meter {
	m := &Meter{}
	if stats {
		m.collectStats()
	}
	return m
}

func (m *Meter) Add() {
	m.mu.Lock()
	m.n++
	m.mu.Unlock()
}

// Store is a generic Meter: the set-up helper is called on an
// instantiation of the method.
//
// Store is thread-safe.
type Store[K comparable] struct {
	mu    sync.Mutex
	Stats *Stats // ok: written only by collectStats, called by NewStore
	m     map[K]int
}

func (s *Store[K]) collectStats() { s.Stats = &Stats{} }

func NewStore[K comparable](stats bool) *Store[K] {
	s := &Store[K]{m: map[K]int{}}
	if stats {
		s.collectStats()
	}
	return s
}

func (s *Store[K]) Add(k K) {
	s.mu.Lock()
	s.m[k]++
	s.mu.Unlock()
}

// Config is read-only by contract: its claim holds only while nobody
// modifies it, so a holder updating its own copy breaks no promise.
//
// Configs are treated as readonly. As long as they are unmodified, they
// are safe for concurrent use.
type Config struct {
	Servers []string // ok: the claim is conditional
}

type Peer struct {
	mu  sync.Mutex
	cfg Config
}

func (p *Peer) SetConfig(c Config) { p.cfg.Servers = c.Servers }
