// Package maporder: a table test whose cases are a map, ranged in the
// runtime's random order; one order of them deadlocks. A failing schedule
// replays only if the replay ranges in the recording's order.
package maporder

import (
	"sync"
	"testing"
)

// cache has a janitor goroutine that takes events until Stop.
type cache struct {
	events chan string
	stop   chan struct{}
	once   sync.Once
	mu     sync.Mutex
	seen   []string
}

func newCache() *cache {
	c := &cache{events: make(chan string), stop: make(chan struct{})}
	go c.janitor()
	return c
}

func (c *cache) janitor() {
	for {
		select {
		case <-c.stop:
			return
		case e := <-c.events:
			c.mu.Lock()
			c.seen = append(c.seen, e)
			c.mu.Unlock()
		}
	}
}

// Set hands the janitor an event: after Stop, no one takes it.
func (c *cache) Set(k string) { c.events <- k }

func (c *cache) Stop() { c.once.Do(func() { close(c.stop) }) }

func (c *cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.seen)
}

// TestCases shares one cache between its cases: "set" after "stop"
// blocks forever (a deadlock), in half of the orders.
func TestCases(t *testing.T) {
	c := newCache()
	defer c.Stop()
	cases := map[string]func(t *testing.T){
		"stop": func(t *testing.T) { c.Stop() },
		"set":  func(t *testing.T) { c.Set("a") },
		"len": func(t *testing.T) {
			if c.Len() > 1 {
				t.Error("more events than sets")
			}
		},
		"noop": func(t *testing.T) {},
	}
	for name, f := range cases {
		t.Run(name, f)
	}
}
