// Package timerresetstale: before Go 1.23's timers (this test file asks
// for them with a //go:debug line, as does any module whose go line is
// older than 1.23), Stop does not take back a value the timer already put
// in C. The idle closer stops and resets its timer for each request
// without a drain. Its first request waits for the greeting the reporter
// writes under the lock; when the reporter takes the lock first, the idle
// timer fires meanwhile, and the loop reads its stale value right after
// the Reset: the connection closes before it was idle for the idle time.

//go:debug asynctimerchan=1

package timerresetstale

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
			t.Stop() // result ignored: no drain of a value already sent
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
