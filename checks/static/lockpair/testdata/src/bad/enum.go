package bad

import "sync"

type readMode int

const (
	readMemory readMode = iota
	readStore
	readMemoryThenStore
)

type offsets struct {
	mu    sync.RWMutex
	table map[string]int64
}

// read misses readMemoryThenStore: that value keeps the read lock.
func (o *offsets) read(k string, m readMode) int64 {
	o.mu.RLock()
	switch m {
	case readMemory:
		off := o.table[k]
		o.mu.RUnlock()
		return off
	case readStore:
		o.mu.RUnlock()
		return 0
	default:
	}
	return -1 // want `o.mu locked at line 20 is still held at this return`
}

// readInt switches over a plain int: any other value reaches the return.
func (o *offsets) readInt(k string, m int) int64 {
	o.mu.RLock()
	switch m {
	case 0:
		o.mu.RUnlock()
		return 0
	case 1:
		o.mu.RUnlock()
		return 1
	}
	return -1 // want `o.mu locked at line 36 is still held at this return`
}
