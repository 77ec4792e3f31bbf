package dynamic // want package:"order dynamic\\.Hub\\.mu -> dynamic\\.Cache\\.mu, dynamic\\.Cache\\.mu -> dynamic\\.Hub\\.mu, dynamic\\.Bus\\.mu -> dynamic\\.Audit\\.mu, dynamic\\.Audit\\.mu -> dynamic\\.Bus\\.mu, dynamic\\.Registry\\.mu -> dynamic\\.Server\\.mu, dynamic\\.Server\\.mu -> dynamic\\.Registry\\.mu, dynamic\\.Cache\\.mu -> dynamic\\.Hook\\.mu, dynamic\\.Sink\\.mu -> dynamic\\.Audit\\.mu, dynamic\\.Sink\\.mu -> dynamic\\.Bus\\.mu"

// Locks taken locks through calls the pass cannot see in the
// syntax: a func value kept in a field, an interface method, a callback
// parameter. The call graph says where each can go.

import "sync"

// Hub evicts entries and tells the cache through a func value.
type Hub struct {
	mu      sync.Mutex
	items   map[string]int
	onEvict func(key string)
}

// Cache forgets what the hub evicts.
type Cache struct {
	mu   sync.Mutex
	hub  *Hub
	keys map[string]bool
}

func NewCache() *Cache {
	c := &Cache{keys: map[string]bool{}}
	c.hub = &Hub{items: map[string]int{}}
	c.hub.onEvict = c.forget
	return c
}

func (h *Hub) Evict(k string) { // want Evict:"acquires dynamic\\.Cache\\.mu via dynamic\\.\\(\\*Cache\\)\\.forget \\(func value\\), dynamic\\.Hub\\.mu"
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.items, k)
	h.onEvict(k) // want `lock order inversion: c.mu \(dynamic.Cache.mu\) acquired via dynamic.\(\*Cache\).forget \(func value\) while holding h.mu \(dynamic.Hub.mu\), but dynamic.\(\*Cache\).Purge acquires dynamic.Hub.mu while holding dynamic.Cache.mu at dynamic.go:\d+ via dynamic.\(\*Hub\).Evict`
}

func (c *Cache) forget(k string) {
	c.mu.Lock()
	delete(c.keys, k)
	c.mu.Unlock()
}

func (c *Cache) Purge() { // want Purge:"acquires dynamic\\.Cache\\.mu, dynamic\\.Hub\\.mu via dynamic\\.\\(\\*Hub\\)\\.Evict"
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.keys {
		c.hub.Evict(k)
	}
}

// Listener is told about events while the bus is locked.
type Listener interface{ Notify(ev string) }

type Bus struct {
	mu sync.Mutex
	ls []Listener
}

func (b *Bus) Add(l Listener) { // want Add:"acquires dynamic\\.Bus\\.mu"
	b.mu.Lock()
	b.ls = append(b.ls, l)
	b.mu.Unlock()
}

func (b *Bus) Publish(ev string) { // want Publish:"acquires dynamic\\.Audit\\.mu via dynamic\\.\\(\\*Audit\\)\\.Notify \\(interface call\\), dynamic\\.Bus\\.mu"
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, l := range b.ls {
		l.Notify(ev) // want `lock order inversion: a.mu \(dynamic.Audit.mu\) acquired via dynamic.\(\*Audit\).Notify \(interface call\) while holding b.mu \(dynamic.Bus.mu\), but dynamic.\(\*Audit\).Flush acquires dynamic.Bus.mu while holding dynamic.Audit.mu`
	}
}

type Audit struct {
	mu  sync.Mutex
	bus *Bus
	log []string
}

func (a *Audit) Notify(ev string) { // want Notify:"acquires dynamic\\.Audit\\.mu"
	a.mu.Lock()
	a.log = append(a.log, ev)
	a.mu.Unlock()
}

func (a *Audit) Flush() { // want Flush:"acquires dynamic\\.Audit\\.mu, dynamic\\.Bus\\.mu via dynamic\\.\\(\\*Bus\\)\\.Publish"
	a.mu.Lock()
	defer a.mu.Unlock()
	a.bus.Publish("flush")
}

func Wire() *Audit { // want Wire:"acquires dynamic\\.Bus\\.mu via dynamic\\.\\(\\*Bus\\)\\.Add"
	b := &Bus{}
	a := &Audit{bus: b}
	b.Add(a)
	return a
}

// Registry calls a callback for each entry under its read lock.
type Registry struct {
	mu      sync.RWMutex
	entries []*Entry
}

type Entry struct{ name string }

func (r *Registry) Each(fn func(*Entry)) { // want Each:"acquires dynamic\\.Registry\\.mu; calls parameter 1 holding dynamic\\.Registry\\.mu"
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, e := range r.entries {
		fn(e)
	}
}

func (r *Registry) Register(e *Entry) { // want Register:"acquires dynamic\\.Registry\\.mu"
	r.mu.Lock()
	r.entries = append(r.entries, e)
	r.mu.Unlock()
}

type Server struct {
	mu    sync.Mutex
	reg   *Registry
	names []string
}

func (s *Server) Reload() { // want Reload:"acquires dynamic\\.Registry\\.mu via dynamic\\.\\(\\*Registry\\)\\.Each, dynamic\\.Server\\.mu via dynamic\\.\\(\\*Registry\\)\\.Each -> dynamic\\.\\(\\*Server\\)\\.Reload \\(func literal\\) \\(callback\\)"
	s.reg.Each(func(e *Entry) { // want `lock order inversion: s.mu \(dynamic.Server.mu\) acquired via dynamic.\(\*Registry\).Each -> dynamic.\(\*Server\).Reload \(func literal\) \(callback, called at dynamic.go:110\) while holding r.mu \(dynamic.Registry.mu\), but dynamic.\(\*Server\).AddEntry acquires dynamic.Registry.mu while holding dynamic.Server.mu`
		s.mu.Lock()
		s.names = append(s.names, e.name)
		s.mu.Unlock()
	})
}

func (s *Server) AddEntry(e *Entry) { // want AddEntry:"acquires dynamic\\.Registry\\.mu via dynamic\\.\\(\\*Registry\\)\\.Register, dynamic\\.Server\\.mu"
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reg.Register(e)
}

// Silent below.

// Hook runs a func value nobody in this package gives it: no guess.
type Hook struct {
	mu sync.Mutex
}

func (h *Hook) Run(f func()) { // want Run:"acquires dynamic\\.Hook\\.mu; calls parameter 1 holding dynamic\\.Hook\\.mu"
	h.mu.Lock()
	f()
	h.mu.Unlock()
}

func (c *Cache) Hooked(h *Hook) { // want Hooked:"acquires dynamic\\.Cache\\.mu, dynamic\\.Hook\\.mu via dynamic\\.\\(\\*Hook\\)\\.Run"
	c.mu.Lock()
	defer c.mu.Unlock()
	h.Run(func() {})
}

// Tree visits children under the parent's lock: two instances of one
// class, whose order depends on the values.
type Tree struct {
	mu   sync.Mutex
	kids []*Tree
	n    int
}

func (t *Tree) Visit(fn func(*Tree)) { // want Visit:"acquires dynamic\\.Tree\\.mu; calls parameter 1 holding dynamic\\.Tree\\.mu"
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range t.kids {
		fn(k)
	}
}

func (t *Tree) Count() { // want Count:"acquires dynamic\\.Tree\\.mu via dynamic\\.\\(\\*Tree\\)\\.Visit"
	t.Visit(func(k *Tree) {
		k.mu.Lock()
		k.n++
		k.mu.Unlock()
	})
}

// Sink is a Listener that is never added to a Bus: the call graph does
// not send Publish there.
type Sink struct {
	mu  sync.Mutex
	bus *Bus
	got int
}

func (s *Sink) Notify(string) { // want Notify:"acquires dynamic\\.Sink\\.mu"
	s.mu.Lock()
	s.got++
	s.mu.Unlock()
}

func (s *Sink) Drain() { // want Drain:"acquires dynamic\\.Audit\\.mu via dynamic\\.\\(\\*Bus\\)\\.Publish -> dynamic\\.\\(\\*Audit\\)\\.Notify \\(interface call\\), dynamic\\.Bus\\.mu via dynamic\\.\\(\\*Bus\\)\\.Publish, dynamic\\.Sink\\.mu"
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bus.Publish("drain")
}

// poll is a helper every caller gives its own closure: a lock held
// around one call of poll pairs only with that caller's closure.
func poll(f func() bool) {
	for !f() {
	}
}

type queue struct {
	mu sync.Mutex
	n  int
}

type meter struct {
	mu sync.Mutex
	q  *queue
	v  int
}

func (q *queue) drain() {
	q.mu.Lock()
	defer q.mu.Unlock()
	poll(func() bool { return q.n == 0 })
}

func (m *meter) wait() {
	poll(func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.v > 0
	})
}

func (m *meter) flush() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.q.drain()
}

// pair is locked in the opposite order only by a test (order_test.go).
type pairA struct{ mu sync.Mutex }
type pairB struct{ mu sync.Mutex }

func syncPair(a *pairA, b *pairB) {
	a.mu.Lock()
	b.mu.Lock()
	b.mu.Unlock()
	a.mu.Unlock()
}

// store drops its lock around its update callback, as nats' stores do:
// trim holds s.mu only until removeLocked releases it for the callback.
type store struct {
	mu sync.Mutex
	cb func()
	n  int
}

type owner struct {
	mu    sync.Mutex
	st    *store
	total int
}

func newOwner() *owner {
	o := &owner{st: &store{}}
	o.st.cb = o.update
	return o
}

func (o *owner) update() {
	o.mu.Lock()
	o.total++
	o.mu.Unlock()
}

func (o *owner) size() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.st.count()
}

func (s *store) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func (s *store) trim() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for s.n > 10 {
		s.removeLocked()
	}
}

func (s *store) removeLocked() {
	s.n--
	if cb := s.cb; cb != nil {
		s.mu.Unlock()
		cb()
		s.mu.Lock()
	}
}
