// Package entryread: IL1009 (IL1008 confirmed) reports an exported
// method that reads, without the mutex, an unexported field every write
// of which holds it, one on the writer's receiver (the shape of
// mongo-driver's Topology.String, a fmt.Stringer); the near misses stay IL1001: an
// unlocked write, an exported field, a read in a helper, a read
// documented as before sharing. setup.go: IL1008 without confirmation.
package entryread

import (
	"fmt"
	"sync"
)

var _ fmt.Stringer = (*Topology)(nil)

type Topology struct {
	mu      sync.RWMutex
	servers map[string]int
	// Handlers is configuration, filled before serving.
	Handlers map[string]int
	name     string
	level    int
}

func (t *Topology) Add(addr string, id int) {
	t.mu.Lock()
	t.servers[addr] = id
	t.Handlers[addr] = id
	t.name = addr
	t.level = id
	t.mu.Unlock()
}

func (t *Topology) Remove(addr string) {
	t.mu.Lock()
	delete(t.servers, addr)
	delete(t.Handlers, addr)
	t.name = ""
	t.level = 0
	t.mu.Unlock()
}

func (t *Topology) Server(addr string) (int, string, int, int) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.servers[addr], t.name, t.level, t.Handlers[addr]
}

func (t *Topology) String() string {
	s := ""
	for addr := range t.servers { // want `field t\.servers read without holding t\.mu in exported method String, while every write of it holds it and Add writes it on a shared value at line 27 \(held at 3 of 3 other accesses\)`
		s += addr
	}
	return s
}

// Handler reads the exported configuration field: IL1001, not IL1008.
func (t *Topology) Handler(addr string) int {
	return t.Handlers[addr] // want `field t\.Handlers read without holding t\.mu \(held at 3 of 3 other accesses\)$`
}

// SetName writes without the lock: IL1001, not IL1008.
func (t *Topology) SetName(n string) {
	t.name = n // want `field t\.name written without holding t\.mu \(held at 3 of 3 other accesses\)$`
}

// Level is for use before the topology is shared: IL1001, not IL1008.
func (t *Topology) Level() int {
	return t.level // want `field t\.level read without holding t\.mu \(held at 3 of 3 other accesses\)$`
}
