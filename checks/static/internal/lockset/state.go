package lockset

import (
	"go/token"
	"strings"
)

// Mode says how a lock is held.
type Mode uint8

// Lock modes, ordered: Exclusive is stronger than Shared.
const (
	Shared    Mode = 1 // RLock
	Exclusive Mode = 2 // Lock
)

func (m Mode) String() string {
	if m == Shared {
		return "read-locked"
	}
	return "locked"
}

// Held is one lock that is definitely held.
type Held struct {
	Lock Path
	Mode Mode
	// Pos is where the lock was acquired (the Lock call), or NoPos when
	// the lock was held on entry.
	Pos token.Pos
	// Deferred reports whether an unlock of this lock has been deferred;
	// the lock stays held until the function returns.
	Deferred bool
}

// State is the set of locks definitely held at one program point. A State
// is immutable: operations return a new State.
type State struct {
	held []Held
}

// Len returns the number of locks held.
func (s State) Len() int { return len(s.held) }

// Locks returns the locks held, in a stable order. The caller must not
// modify the slice.
func (s State) Locks() []Held { return s.held }

// Holds returns the entry for lock p if it is held in any mode.
func (s State) Holds(p Path) (Held, bool) {
	for _, h := range s.held {
		if h.Lock == p {
			return h, true
		}
	}
	return Held{}, false
}

// HoldsUnder reports whether some lock strictly below p (p.mu, p.x.mu)
// is held in the given mode or a stronger one.
func (s State) HoldsUnder(p Path, m Mode) bool {
	for _, h := range s.held {
		if h.Mode >= m && p.Under(h.Lock) {
			return true
		}
	}
	return false
}

func (s State) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, h := range s.held {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(h.Lock.String())
		if h.Mode == Shared {
			b.WriteString("(r)")
		}
	}
	b.WriteByte('}')
	return b.String()
}

// With returns s plus h, replacing an entry for the same lock.
func (s State) With(h Held) State {
	out := make([]Held, 0, len(s.held)+1)
	for _, x := range s.held {
		if x.Lock != h.Lock {
			out = append(out, x)
		}
	}
	return State{append(out, h)}
}

// Without returns s minus lock p.
func (s State) Without(p Path) State {
	if _, ok := s.Holds(p); !ok {
		return s
	}
	out := make([]Held, 0, len(s.held))
	for _, x := range s.held {
		if x.Lock != p {
			out = append(out, x)
		}
	}
	return State{out}
}

// meet intersects two states: a lock is held after a join only if it is
// held on every incoming path, in the weaker of the two modes.
func meet(a, b State) State {
	var out []Held
	for _, x := range a.held {
		if y, ok := b.Holds(x.Lock); ok {
			if y.Mode < x.Mode {
				x.Mode = y.Mode
			}
			x.Deferred = x.Deferred && y.Deferred
			out = append(out, x)
		}
	}
	return State{out}
}

func equal(a, b State) bool {
	if len(a.held) != len(b.held) {
		return false
	}
	for _, x := range a.held {
		y, ok := b.Holds(x.Lock)
		if !ok || y.Mode != x.Mode || y.Deferred != x.Deferred {
			return false
		}
	}
	return true
}

// NewState returns a state holding exactly the given locks.
func NewState(held ...Held) State {
	var s State
	for _, h := range held {
		s = s.With(h)
	}
	return s
}
