package bad

import (
	"sync"

	"tracer"
)

// host holds reqMu around each request, but the tracer starts the
// background init on a goroutine of its own, and Later keeps the warm-up
// to run after the lock is released: start runs without reqMu.
type host struct {
	reqMu sync.Mutex
	tr    tracer.Tracer
	exits *runtimeExits
}

type runtimeExits struct {
	mu     sync.Mutex
	exited map[string]chan struct{}
}

func (e *runtimeExits) start(name string) {
	e.mu.Lock()
	e.exited = map[string]chan struct{}{name: make(chan struct{})}
	e.mu.Unlock()
}

func (e *runtimeExits) reset() {
	e.mu.Lock()
	n := len(e.exited)
	e.mu.Unlock()
	e.mu.Lock()
	e.exited = make(map[string]chan struct{}, n) // want `e\.exited is written from n, read under e\.mu in an earlier critical section`
	e.mu.Unlock()
}

func (h *host) Invoke() {
	h.reqMu.Lock()
	defer h.reqMu.Unlock()
	h.tr.Background(func() error { return initRuntime(h) })
}

func (h *host) Reset() {
	h.reqMu.Lock()
	defer h.reqMu.Unlock()
	h.exits.reset()
}

func initRuntime(h *host) error {
	h.exits.start("runtime")
	return nil
}

// warm has the same sections; its other writer is reached through a
// function the tracer keeps for later.
type warm struct {
	reqMu sync.Mutex
	exits *warmExits
}

type warmExits struct {
	mu     sync.Mutex
	exited map[string]chan struct{}
}

func (e *warmExits) start(name string) {
	e.mu.Lock()
	e.exited = map[string]chan struct{}{name: make(chan struct{})}
	e.mu.Unlock()
}

func (e *warmExits) reset() {
	e.mu.Lock()
	n := len(e.exited)
	e.mu.Unlock()
	e.mu.Lock()
	e.exited = make(map[string]chan struct{}, n) // want `e\.exited is written from n, read under e\.mu in an earlier critical section`
	e.mu.Unlock()
}

func (w *warm) Prepare() {
	w.reqMu.Lock()
	defer w.reqMu.Unlock()
	tracer.Later(func() error { warmUp(w); return nil })
}

func (w *warm) Reset() {
	w.reqMu.Lock()
	defer w.reqMu.Unlock()
	w.exits.reset()
}

func warmUp(w *warm) { w.exits.start("warm") }
