// Package publish: construction before publication. A broker's connection
// goroutine builds a client, starts its writer (which never touches the
// will flag), reads the connect packet into it (Parse, exported, writes the
// flag plainly) and only then publishes it in the client map; the flag is
// loaded and stored atomically by sendWill, which any goroutine holding a
// published client may run. The write in Parse is IL3001 (opt-in), not
// IL3002. Writes after publication, after starting a goroutine that
// accesses the field, and through a client read from the map stay IL3002.
package publish

import (
	"sync"
	"sync/atomic"
)

type Hook interface {
	OnEncode(cl *Client, b []byte) []byte
}

type Will struct {
	Flag  uint32 // want Flag:`atomic\(LoadUint32\)`
	Topic string
}

type Props struct {
	Will Will
	Name string
}

type Client struct {
	ID      string
	Props   Props
	out     chan []byte
	done    chan struct{}
	hooks   []Hook
	sent    int64
	state   uint32
	pending uint32
	quota   int32
}

// Parse reads the connect packet into the client.
func (cl *Client) Parse(id string, will bool) {
	cl.ID = id
	if will {
		cl.Props.Will = Will{Topic: "will/" + id}
		cl.Props.Will.Flag = 1 // want `plain write of cl.Props.Will.Flag races with its atomic accesses`
	}
}

// writeLoop writes what the client is sent; its hooks see the client.
func (cl *Client) writeLoop() {
	for {
		select {
		case b := <-cl.out:
			for _, h := range cl.hooks {
				b = h.OnEncode(cl, b)
			}
			_ = b
			atomic.AddInt64(&cl.sent, 1)
		case <-cl.done:
			return
		}
	}
}

// watch lowers the quota while the client is connected.
func (cl *Client) watch() {
	for atomic.AddInt32(&cl.quota, -1) > 0 {
	}
}

// base is the package's own hook: it keeps nothing.
type base struct{}

func (base) OnEncode(cl *Client, b []byte) []byte { return b }

type Server struct {
	mu      sync.Mutex
	clients map[string]*Client
}

func (s *Server) NewClient() *Client {
	return &Client{out: make(chan []byte), done: make(chan struct{}), hooks: []Hook{base{}}}
}

// Establish runs on the connection's goroutine.
func (s *Server) Establish(id string) {
	cl := s.NewClient()
	s.attach(cl, id)
}

func (s *Server) attach(cl *Client, id string) {
	go cl.writeLoop()
	defer close(cl.done)
	if !s.readConnect(cl) {
		return
	}
	cl.Parse(id, true)
	s.mu.Lock()
	s.clients[cl.ID] = cl
	s.mu.Unlock()
	s.sendWill(cl)
}

func (s *Server) readConnect(cl *Client) bool { return cl.ID == "" }

// sendWill sends the will once; any goroutine holding the client may call it.
func (s *Server) sendWill(cl *Client) {
	if atomic.LoadUint32(&cl.Props.Will.Flag) == 0 {
		return
	}
	atomic.StoreUint32(&cl.Props.Will.Flag, 0)
}

// Kick runs on another goroutine: it takes a published client.
func (s *Server) Kick(id string) {
	s.mu.Lock()
	cl := s.clients[id]
	s.mu.Unlock()
	if cl != nil {
		s.sendWill(cl)
		_ = atomic.LoadUint32(&cl.state)
		_ = atomic.LoadUint32(&cl.pending)
	}
}

// Reattach publishes a fresh client, then writes its state: Kick may
// already be loading it.
func (s *Server) Reattach(id string) {
	cl := &Client{ID: id}
	s.mu.Lock()
	s.clients[id] = cl
	s.mu.Unlock()
	cl.state = 1 /* IL3002 */ // want `plain write of cl.state races with its atomic accesses`
}

// Limit starts the watcher before it sets the quota the watcher lowers.
func (s *Server) Limit(id string) {
	cl := s.NewClient()
	s.start(cl)
}

func (s *Server) start(cl *Client) {
	go cl.watch()
	cl.quota = 10 /* IL3002 */ // want `plain write of cl.quota races with its atomic accesses`
}

// Mark writes through a client read from the map: it is published.
func (s *Server) Mark(id string) {
	s.mu.Lock()
	cl := s.clients[id]
	s.mu.Unlock()
	cl.pending = 1 /* IL3002 */ // want `plain write of cl.pending races with its atomic accesses`
}
