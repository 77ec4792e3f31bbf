package bad

import (
	"io"
	"sync"
	"testing"
)

// Local values whose lock is kept at an error return, but the value has
// been handed on first: someone else can lock it again.
type pipe struct {
	mu   sync.Mutex
	data []byte
}

func newPipe() *pipe { return &pipe{} }

func (p *pipe) lockWrite()   { p.mu.Lock() }
func (p *pipe) unlockWrite() { p.mu.Unlock() }

func (p *pipe) serve() {
	p.mu.Lock()
	p.data = nil
	p.mu.Unlock()
}

type hub struct{ pipes map[string]*pipe }

var lastPipe *pipe

// registered: stored in the hub's map before the error return.
func (h *hub) registered(name string, fail bool) error {
	p := newPipe()
	p.lockWrite()
	h.pipes[name] = p
	if fail {
		return io.ErrClosedPipe // want `p.mu locked at line 34 is still held at this return`
	}
	p.unlockWrite()
	return nil
}

// started: a goroutine locks it later.
func started(fail bool) error {
	p := newPipe()
	p.lockWrite()
	go p.serve()
	if fail {
		return io.ErrClosedPipe // want `p.mu locked at line 46 is still held at this return`
	}
	p.unlockWrite()
	return nil
}

// handedToTest: the test helper t may keep it (t.Cleanup, a log).
func handedToTest(t *testing.T, fail bool) {
	p := newPipe()
	p.lockWrite()
	t.Log(p)
	if fail {
		return // want `p.mu locked at line 58 is still held at this return`
	}
	p.unlockWrite()
}

// published: kept in a package variable.
func published(fail bool) {
	p := &pipe{}
	p.mu.Lock()
	lastPipe = p
	if fail {
		return // want `complit.mu locked at line 69 is still held at this return`
	}
	p.mu.Unlock()
}
