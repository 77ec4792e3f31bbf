package threadsafe

import (
	"errors"
	"sync"
)

type info struct{ n int }

// Table is the thread-safe accumulator for parallel compilation (wazy's
// SharedTryTableMetadata): workers Append under the lock; Table is the
// read-out after they are joined, and seals the table so that a late
// Append panics.
type Table struct {
	mu        sync.Mutex
	entries   []info
	finalized bool
}

func (t *Table) Append(i info) int {
	if t.finalized {
		panic("already finalized")
	}
	t.mu.Lock()
	id := len(t.entries)
	t.entries = append(t.entries, i)
	t.mu.Unlock()
	return id
}

func (t *Table) Table() []info {
	t.finalized = true
	return t.entries // ok: every locked writer refuses once finalized
}

// Log is safe for concurrent use. Add refuses after Close, but Truncate
// does not look at the flag: Close's read races with it.
type Log struct {
	mu     sync.Mutex
	lines  []string
	closed bool
}

var errClosed = errors.New("closed")

func (l *Log) Add(s string) error {
	if l.closed {
		return errClosed
	}
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
	return nil
}

func (l *Log) Truncate() {
	l.mu.Lock()
	l.lines = l.lines[:0]
	l.mu.Unlock()
}

func (l *Log) Close() []string {
	l.closed = true
	return l.lines // want `Log is documented as "safe for concurrent use", but Close reads l.lines without holding l.mu`
}

// Queue is safe for concurrent use. Its writer checks the flag, but the
// flag is never set: no method seals it.
type Queue struct {
	mu     sync.Mutex
	items  []int
	frozen bool
}

func (q *Queue) Push(i int) {
	if q.frozen {
		panic("frozen")
	}
	q.mu.Lock()
	q.items = append(q.items, i)
	q.mu.Unlock()
}

func (q *Queue) Items() []int {
	return q.items // want `Queue is documented as "safe for concurrent use", but Items reads q.items without holding q.mu`
}
