package good

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

func (o *offsets) fetch(string) (int64, error) { return 0, nil }

// read switches over every constant of readMode: its empty default is
// dead code, and so is the last line.
func (o *offsets) read(k string, m readMode) (int64, error) {
	o.mu.RLock()
	switch m {
	case readMemory, readMemoryThenStore:
		if off, ok := o.table[k]; ok {
			o.mu.RUnlock()
			return off, nil
		}
		if m == readMemory {
			o.mu.RUnlock()
			return -1, nil
		}
		fallthrough
	case readStore:
		off, err := o.fetch(k)
		o.mu.RUnlock()
		return off, err
	default:
	}
	return -1, nil
}

// readIf is the same as an if-else chain.
func (o *offsets) readIf(k string, m readMode) int64 {
	o.mu.RLock()
	if m == readMemory {
		o.mu.RUnlock()
		return 0
	} else if m == readStore {
		o.mu.RUnlock()
		return 1
	} else if m == readMemoryThenStore {
		o.mu.RUnlock()
		return 2
	}
	return -1
}
