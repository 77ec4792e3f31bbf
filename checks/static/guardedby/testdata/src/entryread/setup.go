package entryread

import "sync"

// Conn's outbox is written under mu only while Dial sets the connection
// up, on a value it got from a constructor, before it returns it (the
// shape of nats-streaming-server's natsConn): set-up writes are not the
// locked writes IL1008 needs (setupwrite.go), so IL1001 only.
type Conn struct {
	mu     sync.Mutex
	outbox string
	closed bool
}

type Layer struct{ name string }

func (l *Layer) newConn() (*Conn, error) { return &Conn{}, nil }

func (l *Layer) Dial(inbox string) (*Conn, error) {
	c, err := l.newConn()
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.outbox = inbox
	c.mu.Unlock()
	return c, nil
}

func (l *Layer) Accept(inbox string) *Conn {
	c, _ := l.newConn()
	c.mu.Lock()
	c.outbox = inbox
	c.mu.Unlock()
	return c
}

func (c *Conn) Close() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	return c.outbox
}

func (c *Conn) Write(b []byte) string {
	return c.outbox + string(b) // want `field c\.outbox read without holding c\.mu \(held at 3 of 3 other accesses\)$`
}

// Node is locked through lockNodes, a helper that locks mu on each node it
// is given and leaves them locked (go-fuse's Inode.RmChild): the lockset
// cannot see that n.mu is held at the read, so IL1008, not confirmed.
type Node struct {
	mu       sync.Mutex
	children map[string]*Node
	refs     int
}

func lockNodes(ns ...*Node) {
	for _, n := range ns {
		n.mu.Lock()
	}
}

func unlockNodes(ns ...*Node) {
	for _, n := range ns {
		n.mu.Unlock()
	}
}

func (n *Node) AddRef() {
	n.mu.Lock()
	n.refs++
	n.mu.Unlock()
}

func (n *Node) Refs() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.refs
}

func (n *Node) Drop() {
	n.mu.Lock()
	n.refs--
	n.mu.Unlock()
}

func (n *Node) RmChild(name string) bool {
	n.mu.Lock()
	ch := n.children[name]
	n.mu.Unlock()
	lockNodes(n, ch)
	live := n.refs > 0 // want `field n\.refs read without holding n\.mu in exported method RmChild, while every write of it holds it \(held at 3 of 3 other accesses\)$`
	unlockNodes(n, ch)
	return live
}

// Sock's dead is set once, while nil, under mu; Query reads it after
// unlocking inside the branch where it saw it non-nil under mu (mgo's
// socket.Query): it cannot change any more, so nothing is reported.
type Sock struct {
	mu   sync.Mutex
	dead error
}

func (s *Sock) Kill(err error) {
	s.mu.Lock()
	if s.dead != nil {
		s.mu.Unlock()
		return
	}
	s.dead = err
	s.mu.Unlock()
}

func (s *Sock) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dead
}

func (s *Sock) Query() string {
	s.mu.Lock()
	if s.dead != nil {
		s.mu.Unlock()
		return "closed: " + s.dead.Error()
	}
	s.mu.Unlock()
	return ""
}

// component's NetworkType is exported but nothing calls it: the type is
// unexported, never embedded, and converted only to an interface without
// the method (gocbcore's configManagementComponent): IL1008, not
// confirmed. Its twin network, converted to an interface that has the
// method, is confirmed.
type component struct {
	mu      sync.Mutex
	netType string
	rev     int
}

type configWatcher interface{ OnConfig(string) }

func (c *component) OnConfig(t string) {
	c.mu.Lock()
	c.netType = t
	c.rev++
	c.mu.Unlock()
}

func (c *component) Rev() (int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rev, c.netType
}

func (c *component) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.netType
}

func (c *component) NetworkType() string {
	return c.netType // want `field c\.netType read without holding c\.mu in exported method NetworkType, while every write of it holds it \(held at 3 of 3 other accesses\)$`
}

var watchers []configWatcher

func startComponent() {
	c := &component{}
	watchers = append(watchers, c)
	go c.OnConfig("external")
}

type network struct {
	mu      sync.Mutex
	netType string
}

type typed interface{ NetworkType() string }

func (n *network) OnConfig(t string) {
	n.mu.Lock()
	n.netType = t
	n.mu.Unlock()
}

func (n *network) Current() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.netType
}

func (n *network) String() string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.netType
}

func (n *network) NetworkType() string {
	return n.netType // want `field n\.netType read without holding n\.mu in exported method NetworkType, while every write of it holds it and OnConfig writes it on a shared value at line \d+ \(held at 3 of 3 other accesses\); OnConfig runs on the goroutine started by the go statement at setup\.go:\d+, NetworkType is exported`
}

func startNetwork() typed {
	n := &network{}
	go n.OnConfig("default")
	return n
}

// Queue's disposed is written holding lock and disposeLock; Disposed reads
// it holding disposeLock only (go-datastructures' PriorityQueue): no race,
// nothing reported.
type Queue struct {
	lock        sync.Mutex
	disposeLock sync.Mutex
	items       []int
	disposed    bool
}

func (q *Queue) Put(v int) bool {
	q.lock.Lock()
	defer q.lock.Unlock()
	if q.disposed {
		return false
	}
	q.items = append(q.items, v)
	return true
}

func (q *Queue) Get() (int, bool) {
	q.lock.Lock()
	defer q.lock.Unlock()
	if q.disposed || len(q.items) == 0 {
		return 0, false
	}
	v := q.items[0]
	q.items = q.items[1:]
	return v, true
}

func (q *Queue) Disposed() bool {
	q.disposeLock.Lock()
	defer q.disposeLock.Unlock()
	return q.disposed
}

func (q *Queue) Dispose() {
	q.lock.Lock()
	defer q.lock.Unlock()
	q.disposeLock.Lock()
	defer q.disposeLock.Unlock()
	q.disposed = true
	q.items = nil
}

// Stream fits possibleTimeout, the package's interface for errors, by
// accident; the package never converts a Stream to it (mgo's
// ChangeStream.Timeout): IL1008, not confirmed.
type possibleTimeout interface{ Timeout() bool }

func isTimeout(err error) bool {
	t, ok := err.(possibleTimeout)
	return ok && t.Timeout()
}

type Stream struct {
	m    sync.Mutex
	iter *int
}

func (s *Stream) Next() bool {
	s.m.Lock()
	defer s.m.Unlock()
	s.iter = new(int)
	return s.iter != nil
}

func (s *Stream) Close() {
	s.m.Lock()
	defer s.m.Unlock()
	s.iter = nil
}

func (s *Stream) Iter() *int {
	s.m.Lock()
	defer s.m.Unlock()
	return s.iter
}

func (s *Stream) Timeout() bool {
	return s.iter == nil // want `field s\.iter read without holding s\.m in exported method Timeout, while every write of it holds it \(held at \d+ of \d+ other accesses\)$`
}
