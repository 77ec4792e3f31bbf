// Package mutexdoc documents its locks on the mutex, not on each field.
package mutexdoc

import (
	"sync"
	"time"
)

// raftNode: "mu protects all members below", up to the blank line.
type raftNode struct {
	id uint64

	// mu protects all members below.
	mu       sync.Mutex
	term     uint64
	leader   uint64
	applied  uint64
	lastSeen time.Time

	ticks int // not covered: after the blank line
}

func (n *raftNode) Step(term, from uint64) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if term > n.term {
		n.term = term
		n.leader = from
	}
	n.lastSeen = time.Now()
}

func (n *raftNode) Leader() uint64 {
	return n.leader // want `field n.leader read without holding n.mu, which guards it by the comment on its block of fields`
}

func (n *raftNode) Advance(i uint64) {
	n.applied = i // want `field n.applied written without holding n.mu, which guards it by the comment on its block of fields`
	n.ticks++     // ok: not in the documented block
}

func (n *raftNode) Term() uint64 {
	n.mu.Lock()
	t := n.term // ok
	n.mu.Unlock()
	return t
}

func (n *raftNode) ID() uint64 { return n.id } // ok: above the mutex

// subscriptions: "fooLock protects 'foo'" names the fields it guards.
type subscriptions struct {
	subsLock sync.RWMutex // subsLock protects 'subs' and 'count'
	subs     map[string][]func(string)
	count    int
	name     string // not named by the comment
}

func (s *subscriptions) Add(topic string, f func(string)) {
	s.subsLock.Lock()
	s.subs[topic] = append(s.subs[topic], f)
	s.count++
	s.subsLock.Unlock()
	s.name = topic // ok: not named
}

func (s *subscriptions) Count() int {
	return s.count // want `field s.count read without holding s.subsLock, which guards it by the comment on subsLock`
}

func (s *subscriptions) Publish(topic, msg string) {
	s.subsLock.RLock()
	fs := s.subs[topic] // ok
	s.subsLock.RUnlock()
	for _, f := range fs {
		f(msg)
	}
}

func (s *subscriptions) Reset() {
	s.subs = map[string][]func(string){} // want `field s.subs written without holding s.subsLock`
}

// conn: the mutex guards the fields after it, up to the next mutex.
type conn struct {
	mu      sync.Mutex // mutex guards the following fields
	pending []string
	closed  bool
	wmu     sync.Mutex // serializes writes; guards nothing listed
	buf     []byte
}

func (c *conn) Queue(s string) {
	c.mu.Lock()
	if !c.closed {
		c.pending = append(c.pending, s)
	}
	c.mu.Unlock()
}

func (c *conn) Close() {
	c.closed = true // want `field c.closed written without holding c.mu`
}

func (c *conn) Write(p []byte) {
	c.wmu.Lock()
	c.buf = append(c.buf, p...) // ok: after the next mutex
	c.wmu.Unlock()
}

func (c *conn) Flush() {
	c.buf = c.buf[:0] // ok: not documented as guarded by mu
}

// store: a group comment on the first field, "The following are
// protected by mu".
type store struct {
	mu sync.RWMutex

	// The following fields are protected by mu.
	items   map[string]int
	version int64
	// created is set once when the store is built.
	created time.Time

	hits int
}

func (s *store) Put(k string, v int) {
	s.mu.Lock()
	s.items[k] = v
	s.version++
	s.mu.Unlock()
}

func (s *store) Version() int64 {
	return s.version // want `field s.version read without holding s.mu`
}

func (s *store) Created() time.Time { return s.created } // ok: disclaimed ("set once")

func (s *store) Hit() { s.hits++ } // ok: after the blank line

// registry: "mu protects variables below" on a package-level-like holder,
// with fields that are never written after construction (no race).
type registry struct {
	// mu protects variables below.
	mu    sync.Mutex
	name  string
	names map[string]bool
}

func newRegistry(name string) *registry {
	return &registry{name: name, names: map[string]bool{}}
}

func (r *registry) Name() string { return r.name } // ok: never written after construction

func (r *registry) Register(n string) {
	r.mu.Lock()
	r.names[n] = true
	r.mu.Unlock()
}

// negated: "does not protect the fields below" documents nothing.
type negated struct {
	mu    sync.Mutex // does not protect the fields below; see Close
	state int
}

func (n *negated) Set(v int) {
	n.mu.Lock()
	n.state = v
	n.mu.Unlock()
}

func (n *negated) Get() int { return n.state } // ok: no documented guard

// lockHeld documents that its callers hold the lock.
type lockHeld struct {
	mu    sync.Mutex // protects the fields below
	queue []int
}

func (l *lockHeld) Push(v int) {
	l.mu.Lock()
	l.pushLocked(v)
	l.mu.Unlock()
}

func (l *lockHeld) pushLocked(v int) { l.queue = append(l.queue, v) } // ok: named Locked

// Lock should be held.
func (l *lockHeld) drain() []int { // ok: documented as called with the lock
	q := l.queue
	l.queue = nil
	return q
}

func (l *lockHeld) Drain() []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.drain()
}

// Pop runs its own helper under the lock through a closure run on the spot.
func (l *lockHeld) Pop() (v int) {
	func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if len(l.queue) > 0 {
			v, l.queue = l.queue[0], l.queue[1:] // ok
		}
	}()
	return v
}

// Len reads another object's field through a pointer, under its own
// lock: whether w.l is shared (or its lock held by w's callers for the
// lifetime of a transaction) is not known here, so it stays silent.
func (w *watcher) Len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.l.queue) // ok: not reached from the receiver
}

type watcher struct {
	mu sync.Mutex
	l  *lockHeld
}

// proxy sets its state up, then hands itself to goroutines.
type proxy struct {
	mu      sync.Mutex // guards the following fields
	remotes []string
	picks   int
}

func (p *proxy) Run(addrs []string) {
	for _, a := range addrs {
		p.remotes = append(p.remotes, a) // ok: before the value is handed to a goroutine
	}
	go p.monitor()
	p.picks = 0 // want `field p.picks written without holding p.mu`
}

func (p *proxy) monitor() {
	p.mu.Lock()
	p.remotes = p.remotes[:0]
	p.picks++
	p.mu.Unlock()
}

// UnsafeLoad is named for its caller's responsibility (etcd's convention).
func (p *proxy) UnsafeLoad(addrs []string) {
	p.remotes = addrs // ok
}

// layered: two mutexes, either of which may guard the field.
type layered struct {
	// mu protects the fields below.
	mu    sync.RWMutex
	rev   int64
	revMu sync.Mutex
}

func (l *layered) Bump() {
	l.mu.Lock()
	l.revMu.Lock()
	l.rev++
	l.revMu.Unlock()
	l.mu.Unlock()
}

func (l *layered) Rev() int64 {
	l.revMu.Lock()
	defer l.revMu.Unlock()
	return l.rev // ok: another mutex of the struct is held
}

// account documents a group on its mutex, and a second mutex by name.
type account struct {
	name string

	// Usage related fields that will be protected by usageMu
	usageMu  sync.RWMutex
	usage    map[string]int64
	apiTotal uint64

	clMu  sync.Mutex // The mutex for clseq and clfs.
	clseq uint64
	clfs  uint64
	lsent int64 // not named
}

func (a *account) Track(api string) {
	a.usageMu.Lock()
	a.usage[api]++
	a.apiTotal++
	a.usageMu.Unlock()
}

func (a *account) APITotal() uint64 {
	return a.apiTotal // want `field a.apiTotal read without holding a.usageMu`
}

func (a *account) Propose() uint64 {
	a.clMu.Lock()
	a.clseq++
	s := a.clseq
	a.clMu.Unlock()
	a.lsent++ // ok: not named
	return s
}

func (a *account) Failed() {
	a.clfs++ // want `field a.clfs written without holding a.clMu, which guards it by the comment on clMu`
}

// backend resets its read transaction from a path that holds the lock
// through another object (b.rtx.mu, reached as t.b.rtx.mu by the
// committer): the helper's callers hold a lock it cannot relate to rt.
type backend struct {
	rtx *readTx
	btx *batchTx
}

type batchTx struct{ b *backend }

type readTx struct {
	mu sync.RWMutex // guards the fields below
	tx int
}

func (rt *readTx) reset() { rt.tx = 0 } // ok: the callers hold a lock through an alias

func (t *batchTx) commit() { t.b.rtx.reset() }

func (b *backend) Defrag() {
	b.rtx.mu.Lock()
	b.btx.commit()
	b.rtx.tx = 1
	b.rtx.mu.Unlock()
}

func (rt *readTx) Get() int {
	rt.mu.RLock()
	defer rt.mu.RUnlock()
	return rt.tx
}

// cluster's metric helper runs under the lock from Recover and without
// it from SetID, which only runs while the server bootstraps.
type cluster struct {
	cid uint64

	sync.Mutex // guards the fields below
	members    map[uint64]string
}

func (c *cluster) buildMetric() int { return len(c.members) } // ok: some callers hold c.Mutex

func (c *cluster) SetID(id uint64) {
	c.cid = id
	c.buildMetric()
}

func (c *cluster) Recover(m map[uint64]string) {
	c.Lock()
	defer c.Unlock()
	c.members = m
	c.buildMetric()
}

// client: a guard documented only for some uses is no discipline for the
// other accesses (paho's optionsMu).
type client struct {
	options   []string
	optionsMu sync.Mutex // Protects the options in a few limited cases where needed for testing
}

func (c *client) AddServer(s string) {
	c.optionsMu.Lock()
	c.options = append(c.options, s)
	c.optionsMu.Unlock()
}

func (c *client) Servers() int {
	return len(c.options) // ok: the guard is limited to a few cases
}

// stream: documented call orders separate the accesses instead of the lock.
type stream struct {
	// mu guards the fields below.
	mu       sync.Mutex
	header   map[string]string
	services map[string]int
	err      error
}

func (s *stream) WriteHeader(k, v string) {
	s.mu.Lock()
	s.header[k] = v
	s.mu.Unlock()
}

// Header returns the header. It must not be called until after
// WriteHeader.
func (s *stream) Header() map[string]string {
	return s.header // ok: documented call order
}

// HeaderNow has no such documentation.
func (s *stream) HeaderNow() map[string]string {
	return s.header // want `field s.header read without holding s.mu`
}

// Register adds a service. This must be called before invoking Serve.
func (s *stream) Register(name string) {
	s.services[name] = len(s.services) // ok: set-up, ordered before Serve
}

func (s *stream) Serve() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for range s.services {
		s.err = nil
	}
}

func (s *stream) Fail(err error) {
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}

// Err returns the reason. It is not safe to call this function until the
// stream is closed.
func (s *stream) Err() error {
	return s.err // ok: documented call order
}

// summary: "needs mtx AND bufMtx locked" names the locks its callers
// hold; hotExp is written with both held, so a read under mtx is safe
// (prometheus's summary).
type summary struct {
	bufMtx sync.Mutex // Protects hotBuf and hotExp.
	mtx    sync.Mutex // Protects every other moving part.

	hotBuf, coldBuf []float64
	hotExp, headExp int64
}

func (s *summary) Observe(v float64, now int64) {
	s.bufMtx.Lock()
	defer s.bufMtx.Unlock()
	if now > s.hotExp {
		s.asyncFlush(now)
	}
	s.hotBuf = append(s.hotBuf, v)
}

// asyncFlush needs bufMtx locked.
func (s *summary) asyncFlush(now int64) {
	s.mtx.Lock()
	s.swap(now)
	go func() {
		s.flushCold()
		s.mtx.Unlock()
	}()
}

// swap needs mtx AND bufMtx locked.
func (s *summary) swap(now int64) {
	s.hotBuf, s.coldBuf = s.coldBuf, s.hotBuf
	s.hotExp = now
}

// flushCold needs mtx locked.
func (s *summary) flushCold() {
	s.coldBuf = s.coldBuf[:0]
	s.rotate()
}

// rotate needs mtx AND bufMtx locked.
func (s *summary) rotate() {
	for s.headExp < s.hotExp { // ok: documented as called with mtx held, and every write holds it
		s.headExp++
	}
}

func (s *summary) Write(now int64) {
	s.bufMtx.Lock()
	s.mtx.Lock()
	s.swap(now)
	s.bufMtx.Unlock()
	s.flushCold()
	s.mtx.Unlock()
}

// oauthHandler: the comment names a sub-field ("config.URL"): it guards
// that sub-field, not config, and the list goes on after the dotted name.
type oauthHandler struct {
	config  struct{ URL, ClientID string }
	baseURL string
	// metadataMu protects baseURL, config.URL, and resourceURL. It must
	// not be held across I/O.
	metadataMu  sync.Mutex
	resourceURL string
}

func (h *oauthHandler) SetURL(u string) {
	h.metadataMu.Lock()
	defer h.metadataMu.Unlock()
	h.config.URL = u
	h.baseURL = u
	h.resourceURL = u
}

func (h *oauthHandler) Register(id string) {
	h.config.ClientID = id // ok: only config.URL is named
}

func (h *oauthHandler) Resource() string {
	return h.resourceURL // want `field h.resourceURL read without holding h.metadataMu, which guards it by the comment on metadataMu`
}
