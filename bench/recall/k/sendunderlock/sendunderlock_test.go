// Package sendunderlock: emit sends on an unbuffered channel while holding
// the lock the receiver takes before it receives.
package sendunderlock

import (
	"sync"
	"testing"
)

type hub struct {
	mu     sync.Mutex
	log    []string
	events chan string
}

func (h *hub) emit(e string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.log = append(h.log, e)
	h.events <- e // blocks with h.mu held
}

func (h *hub) logged() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.log)
}

func TestEmit(t *testing.T) {
	h := &hub{events: make(chan string)}
	go h.emit("start")
	if n := h.logged(); n > 1 {
		t.Fatalf("%d events", n)
	}
	if e := <-h.events; e != "start" {
		t.Fatalf("event %q", e)
	}
}
