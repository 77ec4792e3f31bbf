// Package startsleep: start launches the registry's loop and sleeps a
// millisecond "to let it initialize" instead of waiting for it. When the
// loop is slow to run, the first register finds no table yet (nil map).
package startsleep

import (
	"sync"
	"testing"
	"time"
)

type registry struct {
	mu    sync.Mutex
	table map[string]int
	quit  chan struct{}
}

func start() *registry {
	r := &registry{quit: make(chan struct{})}
	go r.loop()
	time.Sleep(time.Millisecond) // should wait for a ready signal
	return r
}

func (r *registry) loop() {
	r.mu.Lock()
	r.table = make(map[string]int)
	r.mu.Unlock()
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
