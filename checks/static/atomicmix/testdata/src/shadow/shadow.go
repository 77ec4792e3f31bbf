// Package shadow: plain writes whose function also writes memory that
// every atomic accessor of the field reads plainly, so the two never run
// side by side without racing anyway; and the near misses that stay
// IL3002.
package shadow

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
)

type Poll interface {
	Control(op *Operator, event int) error
}

const detach = 1

// Operator is pooled: reset runs once the poller let go of it (unused
// spins on state), and Control reads op.poll right after its atomic add.
type Operator struct {
	FD       int
	OnRead   func() error
	poll     Poll
	detached int32 // protect only detach once
	state    int32 // 0 unused, 1 in use, 2 polled
}

func (op *Operator) Control(event int) error {
	if event == detach && atomic.AddInt32(&op.detached, 1) > 1 {
		return nil
	}
	return op.poll.Control(op, event)
}

func (op *Operator) unused() {
	for !atomic.CompareAndSwapInt32(&op.state, 1, 0) {
		if atomic.LoadInt32(&op.state) == 0 {
			return
		}
		runtime.Gosched()
	}
}

func (op *Operator) reset() {
	op.FD = 0
	op.OnRead = nil
	op.poll = nil
	op.detached = 0 // want `plain write of op.detached races with its atomic accesses`
}

type cache struct {
	mu   sync.Mutex
	free []*Operator
}

func (c *cache) freeable(op *Operator) {
	op.unused()
	op.reset()
	c.mu.Lock()
	c.free = append(c.free, op)
	c.mu.Unlock()
}

// Will is filled while a client connects; sendLWT copies it whole after
// its atomic load of the flag.
type Will struct {
	Payload []byte
	Topic   string
	Delay   uint32
	Flag    uint32 // want Flag:`atomic\(LoadUint32\)`
}

type Client struct {
	ID    string
	Props struct{ Will Will }
}

type Server struct {
	onWill func(*Client, Will) Will
	sent   []string
}

func (cl *Client) ParseConnect(topic string, payload []byte, delay uint32, flag bool) {
	if flag {
		cl.Props.Will = Will{Topic: topic, Payload: payload}
		if delay > 0 {
			cl.Props.Will.Delay = delay
		}
		cl.Props.Will.Flag = 1 // want `plain write of cl.Props.Will.Flag races with its atomic accesses`
	}
}

func (s *Server) sendLWT(cl *Client) {
	if atomic.LoadUint32(&cl.Props.Will.Flag) == 0 {
		return
	}
	w := s.onWill(cl, cl.Props.Will)
	s.sent = append(s.sent, w.Topic)
	atomic.StoreUint32(&cl.Props.Will.Flag, 0)
}

func (s *Server) attach(cl *Client, read func() error) {
	cl.ParseConnect("t", nil, 0, true)
	if read() != nil {
		s.sendLWT(cl)
	}
}

// processConnect: a second CONNECT on the connection's read loop.
func (s *Server) processConnect(cl *Client) error {
	s.sendLWT(cl)
	return errSecondConnect
}

var errSecondConnect = errors.New("second connect")

// manager: Close clears polls, which Run reads after its atomic load,
// but SetNumLoops stores numLoops and touches nothing else plainly: it
// may run beside Close.
type manager struct {
	numLoops int32
	status   int32
	polls    []Poll
}

func (m *manager) SetNumLoops(n int) {
	atomic.StoreInt32(&m.numLoops, int32(n))
	atomic.StoreInt32(&m.status, 0)
}

func (m *manager) Run() {
	n := int(atomic.LoadInt32(&m.numLoops))
	if n == len(m.polls) {
		return
	}
	m.polls = make([]Poll, n)
}

func (m *manager) Close() {
	m.numLoops = 0 /* IL3002 */ // want `plain write of m.numLoops races with its atomic accesses`
	m.polls = nil
}

// stats: the other field is read and written under the mutex, so the
// reader and the reset do not race on it: the reset stays IL3002.
type stats struct {
	mu    sync.Mutex
	label string
	n     int64
}

func (s *stats) Get() (int64, string) {
	v := atomic.LoadInt64(&s.n)
	s.mu.Lock()
	l := s.label
	s.mu.Unlock()
	return v, l
}

func (s *stats) Reset() {
	s.mu.Lock()
	s.label = ""
	s.mu.Unlock()
	s.n = 0 /* IL3002 */ // want `plain write of s.n races with its atomic accesses`
}
