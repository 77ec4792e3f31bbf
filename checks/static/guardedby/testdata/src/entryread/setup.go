package entryread

import "sync"

// Conn's outbox is written under mu only while Dial sets the connection
// up, on a value it got from a constructor, before it returns it (the
// shape of nats-streaming-server's natsConn): IL1008, not confirmed.
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
	return c.outbox + string(b) // want `field c\.outbox read without holding c\.mu in exported method Write, while every write of it holds it \(held at 3 of 3 other accesses\)$`
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
