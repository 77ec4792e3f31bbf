// Package lockdep is a dependency whose facts lockuse's findings need:
// a Lock wrapper, a function that locks, a function that never returns.
package lockdep

import (
	"os"
	"sync"
)

// Table has a Lock wrapper around its mutex.
type Table struct {
	mu   sync.Mutex
	rows []string
}

// Lock returns with t.mu held.
func (t *Table) Lock() { t.mu.Lock() }

// Unlock releases t.mu.
func (t *Table) Unlock() { t.mu.Unlock() }

// Len takes t.mu.
func (t *Table) Len() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.rows)
}

// Fail never returns.
func Fail(msg string) {
	os.Stderr.WriteString(msg + "\n")
	os.Exit(2)
}
