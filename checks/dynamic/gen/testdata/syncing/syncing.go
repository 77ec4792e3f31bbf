// Package syncing holds types that claim nothing in their doc but hold a
// lock or an atomic: gen tests them in a pull request through the methods
// that use one.
package syncing

import (
	"sync"
	"sync/atomic"
)

// Host is nebula's HostInfo shape: an atomic counter other methods share,
// and a plain field set once while the value is still private. SetRemote
// racing with itself is a use Host does not promise.
type Host struct {
	hits   atomic.Uint32
	remote string
}

// Bump counts a packet.
func (h *Host) Bump() uint32 { return h.hits.Add(1) }

// SetRemote records the peer's address.
func (h *Host) SetRemote(addr string) { h.remote = addr + ":4242" }

// Remote is the peer's address.
func (h *Host) Remote() string { return h.remote }

// Meter counts under its lock, but Reset forgot it: Reset racing with Add
// is a race on a value Meter shares.
type Meter struct {
	mu sync.Mutex
	n  int
}

// Add counts one.
func (m *Meter) Add() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n++
}

// Reset starts again from zero.
func (m *Meter) Reset() { m.n = 0 }

// Gauge locks through an unexported helper.
type Gauge struct {
	mu sync.Mutex
	v  int
}

// Set sets the value.
func (g *Gauge) Set(v int) { g.set(v) }

func (g *Gauge) set(v int) {
	g.mu.Lock()
	g.v = v
	g.mu.Unlock()
}

// Quiet holds a lock no exported method uses: not a target.
type Quiet struct {
	mu   sync.Mutex
	name string
}

// Name is its name.
func (q *Quiet) Name() string { return q.name }

// Rename renames it.
func (q *Quiet) Rename(s string) { q.name = s }

// Board embeds its mutex and locks it in Add: Add is how it is shared,
// not the promoted Lock and Unlock.
type Board struct {
	sync.Mutex
	notes []string
}

// Add pins a note.
func (b *Board) Add(note string) {
	b.Lock()
	defer b.Unlock()
	b.notes = append(b.notes, note)
}

// Len is the number of notes (its caller holds the lock).
func (b *Board) Len() int { return len(b.notes) }

// Pinned embeds a mutex its own methods never take (callers lock it):
// not a target.
type Pinned struct {
	sync.Mutex
	n int
}

// Set sets n.
func (p *Pinned) Set(n int) { p.n = n }
