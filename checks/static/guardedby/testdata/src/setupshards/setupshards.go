// Package setupshards: an exported method of an unexported type whose
// every call is on a value its caller is still building (go-redis v6's
// ringShards.Add, called by NewRing before the heartbeat goroutine
// starts and before the Ring is returned).
package setupshards

import "sync"

type hashRing struct{ nodes []string }

func newHashRing() *hashRing { return &hashRing{} }

func (h *hashRing) Add(n string) { h.nodes = append(h.nodes, n) }

func (h *hashRing) Get(key string) string {
	if len(h.nodes) == 0 {
		return ""
	}
	return h.nodes[len(key)%len(h.nodes)]
}

type client struct{ addr string }

type shards struct {
	mu     sync.RWMutex
	hash   *hashRing
	list   []*client
	closed bool
}

func newShards() *shards { return &shards{hash: newHashRing()} }

func (c *shards) Add(name string, cl *client) {
	c.hash.Add(name) // ok: every call is on shards its caller has not published
	c.list = append(c.list, cl)
}

func (c *shards) Get(key string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hash.Get(key)
}

func (c *shards) heartbeat() {
	for {
		c.mu.RLock()
		if c.closed {
			c.mu.RUnlock()
			return
		}
		n := len(c.hash.nodes)
		c.mu.RUnlock()
		if n == 0 {
			c.rebalance()
		}
	}
}

func (c *shards) rebalance() {
	h := newHashRing()
	c.mu.Lock()
	c.hash = h
	c.mu.Unlock()
}

func (c *shards) Close() {
	c.mu.Lock()
	c.closed = true
	c.hash = nil
	c.mu.Unlock()
}

type infoCache struct{ fn func() []string }

func newInfoCache(fn func() []string) *infoCache { return &infoCache{fn: fn} }

type Ring struct {
	shards  *shards
	info    *infoCache
	process func(string) string
}

func (r *Ring) names() []string { return []string{r.shards.Get("")} }

func (r *Ring) defaultProcess(cmd string) string { return r.shards.Get(cmd) }

func (r *Ring) setProcessor(fn func(string) string) { r.process = fn }

func (r *Ring) init() { r.setProcessor(r.defaultProcess) }

// NewRing keeps method values of r in r before adding the shards: they
// share nothing until r is returned.
func NewRing(addrs map[string]string) *Ring {
	r := &Ring{shards: newShards()}
	r.info = newInfoCache(r.names)
	r.process = r.defaultProcess
	r.init()
	for name, addr := range addrs {
		r.shards.Add(name, &client{addr: addr})
	}
	go r.shards.heartbeat()
	return r
}

// lateShards.Add is called after the heartbeat has started.
type lateShards struct {
	mu   sync.RWMutex
	hash *hashRing
}

func (c *lateShards) Add(name string) {
	c.hash.Add(name) // want `field c.hash read without holding c.mu in exported method Add`
}

func (c *lateShards) Get(key string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hash.Get(key)
}

func (c *lateShards) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.hash.nodes)
}

func (c *lateShards) heartbeat() {
	h := newHashRing()
	c.mu.Lock()
	c.hash = h
	c.mu.Unlock()
}

type LateRing struct{ shards *lateShards }

func NewLateRing(names []string) *LateRing {
	r := &LateRing{shards: &lateShards{hash: newHashRing()}}
	go r.shards.heartbeat()
	for _, n := range names {
		r.shards.Add(n)
	}
	return r
}

// hookShards.Add runs after a method value of its owner went to a
// package-level list that other goroutines call.
type hookShards struct {
	mu   sync.RWMutex
	hash *hashRing
}

func (c *hookShards) Add(name string) {
	c.hash.Add(name) // want `field c.hash read without holding c.mu in exported method Add`
}

func (c *hookShards) Get(key string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hash.Get(key)
}

func (c *hookShards) Len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.hash.nodes)
}

func (c *hookShards) reset() {
	h := newHashRing()
	c.mu.Lock()
	c.hash = h
	c.mu.Unlock()
}

type HookRing struct{ shards *hookShards }

func (r *HookRing) reset() { r.shards.reset() }

// Watch resets the shards in the background.
func (r *HookRing) Watch() { go r.shards.reset() }

var (
	hooksMu sync.Mutex
	hooks   []func()
)

func RunHooks() {
	hooksMu.Lock()
	defer hooksMu.Unlock()
	for _, h := range hooks {
		go h()
	}
}

func NewHookRing(names []string) *HookRing {
	r := &HookRing{shards: &hookShards{hash: newHashRing()}}
	hooksMu.Lock()
	hooks = append(hooks, r.reset)
	hooksMu.Unlock()
	for _, n := range names {
		r.shards.Add(n)
	}
	return r
}
