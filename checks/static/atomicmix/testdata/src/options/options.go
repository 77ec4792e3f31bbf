// Package options: a functional option that writes an atomically read
// field is construction when the package applies options only in its
// constructor, to the value it allocated (zipkin-go's WithNoopTracer);
// an option type also applied to a live value is still reported.
package options

import "sync/atomic"

type Tracer struct {
	noop int32
}

// TracerOption configures a Tracer in NewTracer.
type TracerOption func(t *Tracer) error

func WithNoopTracer(noop bool) TracerOption {
	return func(t *Tracer) error {
		if noop {
			t.noop = 1 // ok: NewTracer applies options to its fresh Tracer only
		} else {
			t.noop = 0 // ok: likewise
		}
		return nil
	}
}

func NewTracer(opts ...TracerOption) (*Tracer, error) {
	t := &Tracer{}
	for _, o := range opts {
		if err := o(t); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func (t *Tracer) SetNoop(noop bool) {
	if noop {
		atomic.StoreInt32(&t.noop, 1)
	} else {
		atomic.StoreInt32(&t.noop, 0)
	}
}

func (t *Tracer) Noop() bool { return atomic.LoadInt32(&t.noop) == 1 }

type Server struct {
	closed int32
	paused int32
}

// ServerOption is applied by NewServer and by Reconfigure, on a live
// server: writes through it race with the atomic loads.
type ServerOption func(s *Server)

func WithClosed() ServerOption {
	return func(s *Server) {
		s.closed = 1 /* IL3002 */ // want `plain write of s\.closed`
	}
}

func NewServer(opts ...ServerOption) *Server {
	s := &Server{}
	for _, o := range opts {
		o(s)
	}
	return s
}

func (s *Server) Reconfigure(opts ...ServerOption) {
	for _, o := range opts {
		o(s)
	}
}

func (s *Server) Closed() bool { return atomic.LoadInt32(&s.closed) == 1 }

func (s *Server) Close() { atomic.StoreInt32(&s.closed, 1) }

type Client struct {
	attempts int32
	rto      int64
}

// ClientOption configures a Client in NewClient.
type ClientOption func(c *Client)

// WithNoRetransmit is itself a ClientOption (pion/stun's): NewClient
// applies it to the Client it made, before the goroutine starts.
func WithNoRetransmit(c *Client) {
	c.attempts = 0 // ok: an option function, applied only while constructing
	if c.rto == 0 {
		c.rto = 100 // ok: likewise
	}
}

func NewClient(opts ...ClientOption) *Client {
	c := &Client{attempts: 7}
	for _, o := range opts {
		o(c)
	}
	go c.loop()
	return c
}

func (c *Client) loop() {
	for atomic.LoadInt32(&c.attempts) > 0 {
		atomic.AddInt64(&c.rto, 1)
	}
}

// Reset calls an option function itself, on a live Client.
func (c *Client) Reset() { WithNoRetries(c) }

func WithNoRetries(c *Client) {
	c.attempts = 0 /* IL3002 */ // want `plain write of c\.attempts`
}

// WithoutPause has ServerOption's signature, which Reconfigure applies to
// a live server.
func WithoutPause(s *Server) {
	s.paused = 0 /* IL3002 */ // want `plain write of s\.paused`
}

func (s *Server) Paused() bool { return atomic.LoadInt32(&s.paused) == 1 }
