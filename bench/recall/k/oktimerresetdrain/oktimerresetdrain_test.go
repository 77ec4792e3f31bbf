// Package oktimerresetdrain: timers before Go 1.23 (the //go:debug line),
// and the idle closer drains the value of a timer that Stop finds expired
// before it resets it (the pre-1.23 idiom): a first request that waits for
// the greeting past the idle time is served, and the connection closes
// only after the idle time. Must not be reported.

//go:debug asynctimerchan=1

package oktimerresetdrain

import (
	"sync"
	"testing"
	"time"
)

type conn struct {
	mu       sync.Mutex // the reporter writes the greeting under it
	greeting string

	reqs    chan chan string
	closed  chan struct{}
	idle    time.Duration
	idleFor time.Duration // how long it was idle when it closed
}

func newConn(idle time.Duration) *conn {
	return &conn{reqs: make(chan chan string), closed: make(chan struct{}), idle: idle}
}

func (c *conn) report() {
	c.mu.Lock()
	time.Sleep(3 * c.idle / 2) // a slow write of the greeting
	c.greeting = "hello"
	c.mu.Unlock()
}

func (c *conn) loop() {
	t := time.NewTimer(c.idle)
	last := time.Now()
	first := true
	for {
		select {
		case reply := <-c.reqs:
			if first {
				first = false
				go c.report()
				c.mu.Lock()
				c.mu.Unlock()
			}
			if !t.Stop() {
				<-t.C // the value it sent: nobody received it
			}
			reply <- "ok"
			last = time.Now()
			t.Reset(c.idle)
		case <-t.C:
			c.idleFor = time.Since(last)
			close(c.closed)
			return
		}
	}
}

func (c *conn) call() bool {
	reply := make(chan string)
	select {
	case c.reqs <- reply:
		return <-reply == "ok"
	case <-c.closed:
		return false
	}
}

func TestKeepAlive(t *testing.T) {
	c := newConn(200 * time.Millisecond)
	go c.loop()
	for range 3 {
		if !c.call() {
			break // closed: idle, or not
		}
		time.Sleep(50 * time.Millisecond) // well inside the idle time
	}
	<-c.closed
	if c.idleFor < c.idle {
		t.Fatalf("closed after %v idle, want at least %v", c.idleFor, c.idle)
	}
}
