// Package instance holds lock-order inversions on one object (IL2102)
// next to class-level look-alikes that no two goroutines can run.
package instance

import "sync"

type log struct {
	mu    sync.Mutex
	lines []string
}

// Server takes its two locks in both orders: two goroutines calling Add
// and Evict on one server deadlock.
type Server struct {
	mu       sync.Mutex
	sessMu   sync.Mutex
	sessions map[string]int
	n        int
	log      log
	conns    []*Conn
}

func (s *Server) Add(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sessMu.Lock() // want `s.sessMu acquired while holding s.mu in Add, and s.mu while holding s.sessMu in Evict: two goroutines on the same Server deadlock`
	s.sessions[id] = s.n
	s.sessMu.Unlock()
}

func (s *Server) Evict(id string) {
	s.sessMu.Lock()
	defer s.sessMu.Unlock()
	s.mu.Lock()
	s.n--
	s.mu.Unlock()
	delete(s.sessions, id)
}

// Through calls on the same server: Flush holds s.mu and appends to the
// log; Rotate holds the log's lock and counts under s.mu.
func (s *Server) Flush() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.appendLog("flush") // want `s.log.mu acquired while holding s.mu in Flush, and s.mu while holding s.log.mu in Rotate: two goroutines on the same Server deadlock`
}

func (s *Server) appendLog(line string) {
	s.log.mu.Lock()
	s.log.lines = append(s.log.lines, line)
	s.log.mu.Unlock()
}

func (s *Server) Rotate() {
	s.log.mu.Lock()
	defer s.log.mu.Unlock()
	s.count()
	s.log.lines = nil
}

func (s *Server) count() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

var (
	cfgMu   sync.Mutex
	stateMu sync.RWMutex
	cfg     map[string]string
	state   int
)

func Reload(k, v string) {
	cfgMu.Lock()
	defer cfgMu.Unlock()
	stateMu.Lock() // want `instance.stateMu acquired while holding instance.cfgMu in Reload, and instance.cfgMu while holding instance.stateMu in Snapshot: two goroutines on the same package deadlock`
	cfg[k] = v
	state++
	stateMu.Unlock()
}

func Snapshot() map[string]string {
	stateMu.RLock()
	defer stateMu.RUnlock()
	cfgMu.Lock()
	defer cfgMu.Unlock()
	return cfg
}

// Conn has a lock per instance; the server visits its connections under
// s.mu, and a connection calls back into its server after dropping its
// own lock.
type Conn struct {
	mu  sync.Mutex
	srv *Server
	buf []byte
}

func (s *Server) Broadcast(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.mu.Lock()
		c.buf = append(c.buf, b...)
		c.mu.Unlock()
	}
}

func (c *Conn) Close() {
	c.mu.Lock()
	c.buf = nil
	srv := c.srv
	c.mu.Unlock()
	srv.mu.Lock()
	srv.n--
	srv.mu.Unlock()
}

// Two accounts of one type: the order depends on the arguments, not on
// one object (IL2101 does not report it either).
type Account struct {
	mu  sync.Mutex
	bal int
}

func Transfer(from, to *Account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.bal -= n
	to.bal += n
}

// A constructor takes the locks in the other order before the value is
// shared.
func NewServer() *Server {
	s := &Server{sessions: map[string]int{}}
	s.sessMu.Lock()
	s.mu.Lock()
	s.n = 0
	s.mu.Unlock()
	s.sessMu.Unlock()
	return s
}

// Cache takes only read locks in the reverse order.
type Cache struct {
	a, b sync.RWMutex
	m    map[int]int
}

func (c *Cache) Get(k int) int {
	c.a.RLock()
	defer c.a.RUnlock()
	c.b.RLock()
	defer c.b.RUnlock()
	return c.m[k]
}

func (c *Cache) Peek(k int) int {
	c.b.RLock()
	defer c.b.RUnlock()
	c.a.RLock()
	defer c.a.RUnlock()
	return c.m[k]
}

// Conn2 takes its lock pair in both orders, but always under its gate
// lock first: the two paths never interleave.
type Conn2 struct {
	gate   sync.Mutex
	m      sync.Mutex
	closeM sync.Mutex
	closed bool
	n      int
}

func (c *Conn2) Shutdown() {
	c.gate.Lock()
	defer c.gate.Unlock()
	c.m.Lock()
	defer c.m.Unlock()
	c.closeM.Lock()
	c.closed = true
	c.closeM.Unlock()
}

func (c *Conn2) Reconnect() {
	c.gate.Lock()
	defer c.gate.Unlock()
	c.closeM.Lock()
	defer c.closeM.Unlock()
	c.m.Lock()
	c.n++
	c.m.Unlock()
}

// Peer's handshake helper is called with p.mu held and drops it around
// closing, which takes the hub's lock: no order between the two.
type Hub struct {
	mu    sync.Mutex
	peers int
}

type Peer struct {
	mu  sync.Mutex
	hub *Hub
	ok  bool
}

func (p *Peer) Announce() {
	p.hub.mu.Lock()
	defer p.hub.mu.Unlock()
	p.mu.Lock()
	p.ok = true
	p.mu.Unlock()
}

func (p *Peer) Connect() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.handshake()
}

// handshake is called with p.mu held.
func (p *Peer) handshake() {
	if !p.ok {
		p.mu.Unlock()
		p.close()
		p.mu.Lock()
	}
}

func (p *Peer) close() {
	p.hub.mu.Lock()
	p.hub.peers--
	p.hub.mu.Unlock()
}

// Registry locks through local closures, called later; and a helper that
// takes the registry lock only when asked to.
type Registry struct {
	mu, smu sync.Mutex
	n       int
}

func (g *Registry) Update(q bool) {
	lock := func() {
		if q {
			g.smu.Lock()
		}
		g.mu.Lock()
	}
	unlock := func() {
		g.mu.Unlock()
		if q {
			g.smu.Unlock()
		}
	}
	lock()
	if g.n < 0 {
		unlock()
		return
	}
	g.n++
	unlock()
	g.smu.Lock()
	defer g.smu.Unlock()
	g.mu.Lock()
	g.n--
	g.mu.Unlock()
}

// refresh takes g.mu first when needLock is set.
func (g *Registry) refresh(needLock bool) {
	if needLock {
		g.mu.Lock()
	}
	g.n++
	if needLock {
		g.mu.Unlock()
	}
}

func (g *Registry) Batch() {
	g.smu.Lock()
	defer g.smu.Unlock()
	g.refresh(false)
	g.refreshVia(false)
}

// refreshVia passes its own needLock on.
func (g *Registry) refreshVia(needLock bool) {
	g.refresh(needLock)
}

func (g *Registry) Sync() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.smu.Lock()
	g.n = 0
	g.smu.Unlock()
}
