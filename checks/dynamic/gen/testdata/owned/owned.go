// Package owned is a kernel for gen's access pairs on unexported types,
// reached through the exported types that hold them, in the shapes of two
// real unguarded-field bugs (written for this kernel). Client embeds the
// unexported hookChain: its Do reaches hookChain.process, which reads
// h.current without h.mu, while AddHook (promoted) rewrites it under it.
// Group holds its unexported workers in a map: ExitIdle reaches
// worker.exitIdle, which ranges over the group's conns without g.mu, while
// Group.Connect writes the map under it. The mirrors: SafeClient embeds
// safeChain, whose process reads under the lock; Router's methods reach
// hookChain.process but it holds no hookChain (each call makes its own),
// so it shares nothing.
package owned

import "sync"

// hookChain runs commands through hooks.
type hookChain struct {
	mu      sync.Mutex
	current string
	n       int
}

// process reads h.current without h.mu: AddHook rewrites it under it.
func (h *hookChain) process(cmd string) string {
	return h.current + ":" + cmd
}

// AddHook puts a hook in front of the others.
func (h *hookChain) AddHook(name string) {
	h.mu.Lock()
	h.current = name + ">" + h.current
	h.n++
	h.mu.Unlock()
}

// Hooks is the number of hooks added.
func (h *hookChain) Hooks() int { h.mu.Lock(); defer h.mu.Unlock(); return h.n }

// Client sends commands through its hooks.
type Client struct {
	*hookChain
	name string
}

// NewClient returns a client with no hooks.
func NewClient() *Client { return &Client{hookChain: &hookChain{current: "base"}, name: "c"} }

// Do runs cmd through the hooks.
func (c *Client) Do(cmd string) string { return c.process(cmd) }

// Name is the client's name.
func (c *Client) Name() string { return c.name }

// safeChain is hookChain with the read under the lock.
type safeChain struct {
	mu      sync.Mutex
	current string
}

// process reads h.current under h.mu.
func (h *safeChain) process(cmd string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.current + ":" + cmd
}

// AddHook puts a hook in front of the others.
func (h *safeChain) AddHook(name string) {
	h.mu.Lock()
	h.current = name + ">" + h.current
	h.mu.Unlock()
}

// SafeClient is Client on a safeChain.
type SafeClient struct {
	*safeChain
}

// NewSafeClient returns a client with no hooks.
func NewSafeClient() *SafeClient { return &SafeClient{&safeChain{current: "base"}} }

// Do runs cmd through the hooks.
func (c *SafeClient) Do(cmd string) string { return c.process(cmd) }

// Router reaches hookChain's methods on a chain of its own per call.
type Router struct {
	prefix string
}

// Route runs cmd through a fresh chain.
func (r *Router) Route(cmd string) string {
	h := &hookChain{current: r.prefix}
	h.AddHook("route")
	return h.process(cmd)
}

// worker serves one connection of a group.
type worker struct {
	group *Group
	id    string
}

// exitIdle ranges over the group's conns without g.mu: Connect writes the
// map under it.
func (w *worker) exitIdle() int {
	n := 0
	for id := range w.group.conns {
		if id != w.id {
			n++
		}
	}
	return n
}

// Group balances over its workers.
type Group struct {
	mu      sync.Mutex
	conns   map[string]int
	workers map[string]*worker
}

// NewGroup returns a group with one worker.
func NewGroup() *Group {
	g := &Group{conns: map[string]int{}, workers: map[string]*worker{}}
	g.workers["a"] = &worker{group: g, id: "a"}
	return g
}

// Connect records a connection.
func (g *Group) Connect(id string) {
	g.mu.Lock()
	g.conns[id]++
	g.mu.Unlock()
}

// ExitIdle wakes every worker.
func (g *Group) ExitIdle() int {
	g.mu.Lock()
	ws := make([]*worker, 0, len(g.workers))
	for _, w := range g.workers {
		ws = append(ws, w)
	}
	g.mu.Unlock()
	n := 0
	for _, w := range ws {
		n += w.exitIdle()
	}
	return n
}

// Conns is the number of connections.
func (g *Group) Conns() int { g.mu.Lock(); defer g.mu.Unlock(); return len(g.conns) }
