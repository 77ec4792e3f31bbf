// Package publishhook: publish's shape, but the package's own hook, run by
// the writer goroutine started before parse, records the client where Kick
// finds it: the client is published before parse writes the flag.
package publishhook

import (
	"sync"
	"sync/atomic"
)

type Hook interface {
	OnEncode(cl *Client, b []byte) []byte
}

type Client struct {
	id    string
	flag  uint32
	out   chan []byte
	hooks []Hook
}

func (cl *Client) parse(id string) {
	cl.id = id
	cl.flag = 1 /* IL3002 */ // want `plain write of cl.flag races with its atomic accesses`
}

func (cl *Client) writeLoop() {
	for b := range cl.out {
		for _, h := range cl.hooks {
			b = h.OnEncode(cl, b)
		}
	}
}

// keeper records every client it sees.
type keeper struct{ s *Server }

func (k keeper) OnEncode(cl *Client, b []byte) []byte {
	k.s.mu.Lock()
	k.s.clients[cl.id] = cl
	k.s.mu.Unlock()
	return b
}

type Server struct {
	mu      sync.Mutex
	clients map[string]*Client
}

func (s *Server) Establish(id string) {
	cl := &Client{out: make(chan []byte), hooks: []Hook{keeper{s}}}
	s.attach(cl, id)
}

func (s *Server) attach(cl *Client, id string) {
	go cl.writeLoop()
	cl.parse(id)
}

func (s *Server) Kick(id string) {
	s.mu.Lock()
	cl := s.clients[id]
	s.mu.Unlock()
	if cl != nil && atomic.LoadUint32(&cl.flag) == 1 {
		atomic.StoreUint32(&cl.flag, 0)
	}
}
