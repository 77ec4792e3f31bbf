// Package wrapped is a kernel for gen's guarded types whose lock is the
// package's own wrapper (logrus's Logger and its MutexWrap): Journal
// claims nothing and has no sync field of its own, only a lockWrap. The
// change split Append's read and advance of the sequence number into two
// critical sections, so two Appends on one journal can number their
// entries alike (an order violation reachable only through the changed
// Append); no sequential order of the same calls does that.
package wrapped

import "sync"

// lockWrap is a mutex that can be turned off (logrus's MutexWrap).
type lockWrap struct {
	mu       sync.Mutex
	disabled bool
}

func (l *lockWrap) Lock() {
	if !l.disabled {
		l.mu.Lock()
	}
}

func (l *lockWrap) Unlock() {
	if !l.disabled {
		l.mu.Unlock()
	}
}

// Journal numbers the messages appended to it.
type Journal struct {
	mu      lockWrap
	seq     int
	entries []string
}

// New returns an empty journal.
func New() *Journal { return &Journal{} }

// Append adds msg and returns its sequence number. The change moved the
// advance into a critical section of its own.
func (j *Journal) Append(msg string) int {
	j.mu.Lock()
	n := j.seq
	j.mu.Unlock()
	j.mu.Lock()
	j.seq = n + 1
	j.entries = append(j.entries, msg)
	j.mu.Unlock()
	return n
}

// Len is the number of entries.
func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.entries)
}
