// Package hygiene has a test that never closes what it opens: its
// janitor goroutine leaks on every schedule, the unperturbed one included,
// so the leak is the test's own ("fails without interleave too"), not a
// finding. A reply dropped only on some interleavings is a finding.
package hygiene

import (
	"runtime/debug"
	"strings"
	"sync"
	"testing"
)

// Cache is a map with a background janitor; Close stops it.
type Cache struct {
	mu   sync.Mutex
	m    map[string]int
	stop chan struct{}
}

func New() *Cache {
	c := &Cache{m: map[string]int{}, stop: make(chan struct{})}
	go c.janitor()
	return c
}

func (c *Cache) janitor() {
	<-c.stop
	c.mu.Lock()
	clear(c.m)
	c.mu.Unlock()
}

func (c *Cache) Close() { close(c.stop) }

func (c *Cache) Set(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

func (c *Cache) Get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

func TestForgetsClose(t *testing.T) {
	c := New() // never closed: the janitor outlives the test
	c.Set("a", 1)
	if c.Get("a") != 1 {
		t.Fatal("lost a value")
	}
}

func TestDropsReply(t *testing.T) {
	ready := make(chan struct{})
	reply := make(chan int)
	c := New()
	defer c.Close()
	go func() {
		close(ready)
		c.Set("x", 1)
		reply <- 1 // blocks forever when the select below has given up
	}()
	<-ready
	select {
	case <-reply:
	default:
	}
}

// TestLeaksOnlyUnderTheTool leaks its janitor only when interleave's
// runtime is on its stack: it stands for a failure the tool itself causes on
// the unperturbed schedule. Plain go test passes it, so
// it is neither a finding nor "fails without interleave too", but a note.
func TestLeaksOnlyUnderTheTool(t *testing.T) {
	c := New()
	if !strings.Contains(string(debug.Stack()), "interleavert") {
		defer c.Close()
	}
	c.Set("a", 1)
}

// TestFailsByItself fails on every run, with or without interleave.
func TestFailsByItself(t *testing.T) {
	t.Logf("checking the value")
	c := New()
	defer c.Close()
	if got := c.Get("a"); got != 1 {
		t.Errorf("Get(a) = %d, want 1", got)
	}
}
