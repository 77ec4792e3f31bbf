package entryread

import (
	"net/http"
	"sync"
)

// The shapes of two go-ethereum fixes, confirmed by a write on the
// writer's receiver: IL1009.

// HTTPHandler's config is replaced under mu by enableRPC, which the node
// calls on a running server; ServeHTTP reads it unlocked (PR 32047).
type HTTPHandler struct {
	mu     sync.Mutex
	config httpConfig
	next   http.Handler
}

type httpConfig struct{ prefix string }

func (h *HTTPHandler) enableRPC(c httpConfig, next http.Handler) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.config = c
	h.next = next
}

func (h *HTTPHandler) disableRPC() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.config = httpConfig{}
	h.next = nil
}

func (h *HTTPHandler) Prefix() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.config.prefix
}

func (h *HTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	next := h.next
	h.mu.Unlock()
	if next != nil && r.URL.Path == h.config.prefix { // want `field h\.config read without holding h\.mu in exported method ServeHTTP, while every write of it holds it and enableRPC writes it on a shared value at line 24 \(held at 3 of 3 other accesses\)`
		next.ServeHTTP(w, r)
	}
}

// Pool.all is replaced under mu by Clear; Add, a method of the SubPool
// interface, looks a transaction up before it takes mu (PR 31641).
type SubPool interface {
	Add(hash string, v int) bool
	Len() int
}

type Pool struct {
	mu  sync.Mutex
	all map[string]int
}

func (p *Pool) Clear() {
	p.mu.Lock()
	p.all = map[string]int{}
	p.mu.Unlock()
}

func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.all)
}

func (p *Pool) Add(hash string, v int) bool {
	if _, ok := p.all[hash]; ok { // want `field p\.all read without holding p\.mu in exported method Add, while every write of it holds it and Clear writes it on a shared value at line 64 \(held at 3 of 3 other accesses\)`
		return false
	}
	p.mu.Lock()
	p.all[hash] = v
	p.mu.Unlock()
	return true
}
