// Package setupparam: a helper that sets up a value its caller has just
// built and not yet handed out (rabbitmq-stream's declarePublisher →
// internalDeclarePublisher) writes a field that Send later adds to
// atomically. Every call of the helper passes a fresh value, so the write
// is construction. A helper also given a live value is still reported.
package setupparam

import (
	"errors"
	"sync"
	"sync/atomic"
)

type Sender struct {
	id   uint8
	name string
	seq  int64
}

// Send numbers the message; any goroutine holding the sender may call it.
func (s *Sender) Send(msg []byte) int64 {
	return atomic.AddInt64(&s.seq, 1)
}

// Last reads the sequence without a lock.
func (s *Sender) Last() int64 { return atomic.LoadInt64(&s.seq) }

type registry struct {
	mu      sync.Mutex
	senders map[uint8]*Sender
	next    uint8
}

// NewSender allocates a sender and records it by id.
func (r *registry) NewSender(name string) (*Sender, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.next == 255 {
		return nil, errors.New("no ids left")
	}
	r.next++
	s := &Sender{id: r.next, name: name}
	r.senders[s.id] = s
	return s, nil
}

type Client struct {
	reg  *registry
	last func(string) (int64, error)
}

// DeclareSender is not a constructor by name, but it builds the sender and
// hands it out only when it returns.
func (c *Client) DeclareSender(name string) (*Sender, error) {
	s, err := c.reg.NewSender(name)
	if err != nil {
		return nil, err
	}
	if err := c.declare(s); err != nil {
		return nil, err
	}
	return s, nil
}

// declare restores the sequence the server remembers for the name.
func (c *Client) declare(s *Sender) error {
	if s.name == "" {
		return nil
	}
	v, err := c.last(s.name)
	if err != nil {
		return err
	}
	s.seq = v // ok: every call passes a sender its caller has just built
	return c.announce(s)
}

// announce is reached only through declare, on the same fresh sender.
func (c *Client) announce(s *Sender) error {
	s.seq++ // ok: declare's sender, still unshared
	return nil
}

// restore is also called on a sender already handed out.
func (c *Client) restore(s *Sender, v int64) {
	s.seq = v /* IL3002 */ // want `plain write of s.seq .* \(and 2 more plain writes, listed as related\)`
}

func (c *Client) Redeclare(s *Sender) {
	v, _ := c.last(s.name)
	c.restore(s, v)
}

func (c *Client) DeclareRestored(name string, v int64) (*Sender, error) {
	s, err := c.reg.NewSender(name)
	if err != nil {
		return nil, err
	}
	c.restore(s, v)
	return s, nil
}

// DeclareStarted starts the sender's pump before it sets the sequence: the
// value is shared by then.
func (c *Client) DeclareStarted(name string) (*Sender, error) {
	s, err := c.reg.NewSender(name)
	if err != nil {
		return nil, err
	}
	go s.pump()
	c.late(s)
	return s, nil
}

func (c *Client) late(s *Sender) {
	s.seq = 0 // related to restore's finding: started before the write
}

func (s *Sender) pump() {
	for atomic.LoadInt64(&s.seq) < 10 {
		s.Send(nil)
	}
}

// DeclareDetached's helper starts a goroutine on the fresh sender it was given before it
// writes: the goroutine shares it.
func (c *Client) DeclareDetached(name string) (*Sender, error) {
	s, err := c.reg.NewSender(name)
	if err != nil {
		return nil, err
	}
	c.detached(s)
	return s, nil
}

func (c *Client) detached(s *Sender) {
	go s.pump()
	s.seq = 1 // related to restore's finding: the helper starts it first
}
