// Package construct: a guarded field written without its lock by an
// exported method the package calls only on values it has not published
// yet (construction before publication), beside the writes that race.
package construct

import "sync"

type Client struct {
	// mu protects the fields below.
	mu    sync.Mutex
	state int
	will  string
}

type Server struct {
	mu       sync.Mutex
	clients  map[string]*Client
	counters []*Counter
}

// Establish sets a new client up, then publishes it: stored in the map,
// handed to its goroutine.
func (s *Server) Establish(id, will string) {
	cl := &Client{}
	cl.mu.Lock()
	cl.mu.Unlock()
	cl.Parse(will)
	s.mu.Lock()
	s.clients[id] = cl
	s.mu.Unlock()
	go cl.loop()
}

// Parse reads the connect packet into a client being set up.
func (cl *Client) Parse(will string) {
	cl.will = will // want `field cl.will written without holding cl.mu, which guards it .*made before the value is published`
	cl.state = 1   // one finding with cl.will: the same function, the same lock
}

func (cl *Client) loop() {
	cl.mu.Lock()
	cl.state++
	cl.will = ""
	cl.mu.Unlock()
}

// Reattach publishes the client before resetting it: the goroutine of
// another client's Establish may not see it, but Mark may.
func (s *Server) Reattach(id string) {
	cl := &Client{}
	s.mu.Lock()
	s.clients[id] = cl
	s.mu.Unlock()
	go cl.loop()
	cl.Reset()
}

// Reset is called on a published client.
func (cl *Client) Reset() {
	cl.state = 0 // want `field cl.state written without holding cl.mu, which guards it .*runs on the goroutine`
}

// Mark hands on a client read from the shared map: not fresh.
func (s *Server) Mark(id string) {
	s.mu.Lock()
	cl := s.clients[id]
	s.mu.Unlock()
	cl.Leave("gone")
}

// Leave is called on a shared client.
func (cl *Client) Leave(will string) {
	cl.will = will // want `field cl.will written without holding cl.mu, which guards it .*runs on the goroutine`
}

// Counter's guard is inferred: mu is held at the other accesses of n.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Track sets a counter up, then publishes it.
func (s *Server) Track() *Counter {
	c := &Counter{}
	c.Prepare(10)
	s.mu.Lock()
	s.counters = append(s.counters, c)
	s.mu.Unlock()
	go c.run()
	return c
}

// Prepare is called only on counters not shared yet: its unlocked write
// does not count against the guard.
func (c *Counter) Prepare(n int) {
	c.n = n
}

func (c *Counter) run() {
	for {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}
}

func (c *Counter) Add(d int) {
	c.mu.Lock()
	c.n += d
	c.mu.Unlock()
}

func (c *Counter) Reset() {
	c.mu.Lock()
	c.n = 0
	c.mu.Unlock()
}

// Peek reads without the lock every other write holds.
func (c *Counter) Peek() int {
	return c.n // want `field c.n read without holding c.mu in exported method Peek, while every write of it holds it`
}
