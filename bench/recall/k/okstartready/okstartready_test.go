// Package okstartready: start waits for the loop's ready signal. Must not
// be reported.
package okstartready

import (
	"sync"
	"testing"
)

type registry struct {
	mu    sync.Mutex
	table map[string]int
	quit  chan struct{}
	ready chan struct{}
}

func start() *registry {
	r := &registry{quit: make(chan struct{}), ready: make(chan struct{})}
	go r.loop()
	<-r.ready
	return r
}

func (r *registry) loop() {
	r.mu.Lock()
	r.table = make(map[string]int)
	r.mu.Unlock()
	close(r.ready)
	<-r.quit
}

func (r *registry) register(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.table[name]++
}

func TestRegister(t *testing.T) {
	r := start()
	defer close(r.quit)
	r.register("a")
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.table["a"] != 1 {
		t.Fatalf("table %v", r.table)
	}
}
