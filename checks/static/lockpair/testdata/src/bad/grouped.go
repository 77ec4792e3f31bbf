package bad

import (
	"errors"
	"sync"
)

var errEmpty, errNegative, errExists = errors.New("empty"), errors.New("negative"), errors.New("exists")

type Registry struct {
	mu    sync.Mutex
	items map[string]int
}

// put forgets the unlock on three error paths: one defect, one finding;
// the other two returns are its related positions.
func (r *Registry) put(k string, v int) error {
	r.mu.Lock()
	if k == "" {
		return errEmpty // want `r.mu locked at line 18 is still held at this return \(and at 2 more exits, listed as related\), but released before 1 other return\(s\)`
	}
	if v < 0 {
		return errNegative
	}
	if _, ok := r.items[k]; ok {
		return errExists
	}
	r.items[k] = v
	r.mu.Unlock()
	return nil
}
