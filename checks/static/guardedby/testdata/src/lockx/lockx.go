// Package lockx is a module's own lock package (as gopkg's syncx): lock
// types built on sync mutexes, called from another package.
package lockx

import "sync"

// RWMutex is a reader-writer lock split into shards: Lock takes every
// shard, RLock one.
type RWMutex []shard

type shard struct {
	sync.RWMutex
	_ [40]byte
}

func New() RWMutex { return make(RWMutex, 4) }

func (rw RWMutex) Lock() {
	for i := range rw {
		rw[i].Lock()
	}
}

func (rw RWMutex) Unlock() {
	for i := range rw {
		rw[i].Unlock()
	}
}

func (rw RWMutex) RLock()   { rw[0].RLock() }
func (rw RWMutex) RUnlock() { rw[0].RUnlock() }

// Mutex is a sync.Mutex that records its holder.
type Mutex struct {
	mu     sync.Mutex
	holder string
}

func (m *Mutex) Lock() {
	m.mu.Lock()
	m.holder = "locked"
}

func (m *Mutex) Unlock() {
	m.holder = ""
	m.mu.Unlock()
}

// FileLock is a lock of a file, not built on a sync mutex: not a lock
// of this process's memory.
type FileLock struct{ path string }

func (f *FileLock) Lock()   {}
func (f *FileLock) Unlock() {}

// Exclusive offers the RWMutex method names over one sync.Mutex: its
// RLock excludes everyone.
type Exclusive struct{ mu sync.Mutex }

func (e *Exclusive) Lock()    { e.mu.Lock() }
func (e *Exclusive) Unlock()  { e.mu.Unlock() }
func (e *Exclusive) RLock()   { e.mu.Lock() }
func (e *Exclusive) RUnlock() { e.mu.Unlock() }
