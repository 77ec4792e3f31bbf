package good

import (
	"sync"

	"tracer"
)

// host runs one request at a time: Init and Invoke hold reqMu for the
// whole call, and the inline init runs inside trace segments that the
// tracer package calls before it returns, under the same lock.
type host struct {
	reqMu sync.Mutex
	tr    tracer.Tracer
	exits *runtimeExits
	ready bool
}

type runtimeExits struct {
	mu     sync.Mutex
	exited map[string]chan struct{}
}

// start is the other writer of exited, reached only under reqMu.
func (e *runtimeExits) start(name string) {
	e.mu.Lock()
	e.exited = map[string]chan struct{}{name: make(chan struct{})}
	e.mu.Unlock()
}

// reset waits for the runtime to exit, with e.mu dropped while it waits.
func (e *runtimeExits) reset() {
	e.mu.Lock()
	n := len(e.exited)
	e.mu.Unlock()
	e.mu.Lock()
	e.exited = make(map[string]chan struct{}, n)
	e.mu.Unlock()
}

func (h *host) Invoke() error {
	h.reqMu.Lock()
	defer h.reqMu.Unlock()
	return invoke(h)
}

func (h *host) Init() error {
	h.reqMu.Lock()
	defer h.reqMu.Unlock()
	return tracer.Segment("init", func() error { return initRuntime(h) })
}

func (h *host) Reset() {
	h.reqMu.Lock()
	defer h.reqMu.Unlock()
	h.exits.reset()
}

func invoke(h *host) error {
	return h.tr.Capture("invoke", h.tr.WithCause(func() error {
		if !h.ready {
			if err := h.tr.Capture("init", func() error { return initRuntime(h) }); err != nil {
				return err
			}
		}
		return nil
	}))
}

func initRuntime(h *host) error {
	h.exits.start("runtime")
	h.ready = true
	return nil
}
