// Package flight plays golang.org/x/sync/singleflight's DoChan: the
// goroutine it starts runs another function of the package, handed the
// caller's function (go g.doCall(c, fn)).
package flight

import "sync"

type call struct {
	val int
	ch  chan int
}

// Group runs one call per key at a time.
type Group struct {
	mu sync.Mutex
	m  map[string]*call
}

// DoChan runs fn for key on a new goroutine unless a call for key is
// running; the channel receives its result.
func (g *Group) DoChan(key string, fn func() int) <-chan int {
	ch := make(chan int, 1)
	g.mu.Lock()
	if g.m == nil {
		g.m = map[string]*call{}
	}
	if c, ok := g.m[key]; ok {
		g.mu.Unlock()
		go func() { ch <- <-c.ch }()
		return ch
	}
	c := &call{ch: ch}
	g.m[key] = c
	g.mu.Unlock()
	go g.doCall(c, key, fn)
	return ch
}

func (g *Group) doCall(c *call, key string, fn func() int) {
	c.val = fn()
	g.mu.Lock()
	delete(g.m, key)
	g.mu.Unlock()
	c.ch <- c.val
}
