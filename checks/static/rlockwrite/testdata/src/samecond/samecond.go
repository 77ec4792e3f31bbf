// Package samecond: a function that takes the write lock or the read
// lock by one condition and writes only under the same condition (a
// mailbox listing that marks messages seen only when asked to, and then
// holds the write lock); and a real write under the read lock beside it.
package samecond

import "sync"

type Msg struct{ Flags []string }

type Mailbox struct {
	mu   sync.RWMutex
	msgs []*Msg
}

func (m *Mailbox) List(items []string) int {
	mark := false
	for _, it := range items {
		if it == "BODY[]" {
			mark = true
		}
	}
	if mark {
		m.mu.Lock()
		defer m.mu.Unlock()
	} else {
		m.mu.RLock()
		defer m.mu.RUnlock()
	}
	n := 0
	for _, msg := range m.msgs {
		if mark {
			msg.Flags = append(msg.Flags, "seen") // ok: mark holds the write lock
		}
		n += len(msg.Flags)
	}
	return n
}

func (m *Mailbox) Add(msg *Msg) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.msgs = append(m.msgs, msg)
}

// Store writes the flags under the read lock.
func (m *Mailbox) Store(flag string) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	for _, msg := range m.msgs {
		msg.Flags = append(msg.Flags, flag) // want `write through m.msgs while holding only the read lock m.mu \(and 1 more write, listed as related\)`
	}
}

// Flip tests the condition again after changing it: not the same value.
func (m *Mailbox) Flip(mark bool) {
	if mark {
		m.mu.Lock()
		defer m.mu.Unlock()
	} else {
		m.mu.RLock()
		defer m.mu.RUnlock()
	}
	mark = !mark
	if mark {
		m.msgs[0].Flags = nil // Store's related write: another value than the test's
	}
}
