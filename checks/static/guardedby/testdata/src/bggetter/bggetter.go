// Package bggetter: a background goroutine writes a documented field
// under its lock while an exported getter reads it without the lock.
package bggetter

import (
	"sync"
	"time"
)

type Poller struct {
	// mu protects all members below.
	mu      sync.Mutex
	state   string
	count   int
	expired bool
}

func NewPoller() *Poller {
	p := &Poller{state: "idle"} // ok: constructor
	go p.loop()
	time.AfterFunc(time.Second, p.expire)
	return p
}

func (p *Poller) loop() {
	for {
		p.mu.Lock()
		p.state = "polling"
		p.mu.Unlock()
		// The loop is the only writer of count: its unlocked read is safe,
		// and not a default report (IL1006: no conflicting write elsewhere).
		n := p.count // want `field p.count read without holding p.mu.*\(no goroutine evidence\)`
		p.mu.Lock()
		p.count = n + 1
		p.mu.Unlock()
	}
}

func (p *Poller) expire() {
	p.mu.Lock()
	p.expired = true
	p.mu.Unlock()
}

// State reads without p.mu while the loop writes.
func (p *Poller) State() string {
	return p.state // want `field p.state read without holding p.mu, which guards it by the comment on its block of fields \("mu protects all members below\."\); loop runs on the goroutine started by the go statement`
}

// Count reads under the lock.
func (p *Poller) Count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count // ok
}

// Expired reads a field the AfterFunc callback writes.
func (p *Poller) Expired() bool {
	return p.expired // want `field p.expired read without holding p.mu.*expire runs on the goroutine started by the time.AfterFunc`
}

type Router struct {
	// mu guards the fields below.
	mu       sync.RWMutex
	fallback func(string)
}

type Client struct{ router *Router }

// NewClient is the only caller of setFallback: a constructor is no
// exported entry, so the locked write there is no evidence.
func NewClient(f func(string)) *Client {
	c := &Client{router: &Router{}}
	c.router.setFallback(f)
	go c.router.dispatch([]string{"a"})
	return c
}

func (r *Router) setFallback(f func(string)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fallback = f
}

func (r *Router) dispatch(msgs []string) {
	for _, m := range msgs {
		if r.fallback != nil { // want `field r.fallback read without holding r.mu.*\(no goroutine evidence\)`
			r.fallback(m) // related position of the finding at line 87 (same field, lock and rule)
		}
	}
}

// Closed accepts its race: //go:norace.
//
//go:norace
func (p *Poller) Closed() string {
	return p.state // ok: the author opted out of race detection
}

// Stop locks for one field and writes another after unlocking.
func (p *Poller) Stop() {
	p.mu.Lock()
	p.expired = true
	p.mu.Unlock()
	p.state = "stopped" // related position of the finding at line 47 (same field, lock and rule)
}

// Refresh unlocks through a closure on its error path.
func (p *Poller) Refresh(fail bool) {
	p.mu.Lock()
	unlock := func() { p.mu.Unlock() }
	if fail {
		unlock()
		return
	}
	p.state = "refreshing" // ok: inside the section
	unlock()
}
