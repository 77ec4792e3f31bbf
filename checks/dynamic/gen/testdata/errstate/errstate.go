// Package errstate holds a state machine whose failed move reports the
// state it reads after the attempt, as go-redis's ConnStateMachine does
// (a failed CAS, then a separate load for the error's text), and a seat
// counter that is broken. gen's oracle must not call the machine's failed
// moves non-linearizable (on error the other results and the error's
// wrapping text are not compared; what it wraps is), and must still find
// the seats sold twice.
package errstate

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// State is a machine's state.
type State uint32

// The states.
const (
	Idle State = iota
	Busy
	Closed
)

func (s State) String() string {
	switch s {
	case Idle:
		return "idle"
	case Busy:
		return "busy"
	case Closed:
		return "closed"
	}
	return "unknown"
}

// ErrInvalidMove says a move was not allowed from the state it found.
var ErrInvalidMove = errors.New("invalid move")

// Machine holds a state. It is safe for concurrent use.
type Machine struct {
	state atomic.Uint32
}

// NewMachine returns a machine in Idle.
func NewMachine() *Machine { return &Machine{} }

// Get returns the state.
func (m *Machine) Get() State { return State(m.state.Load()) }

// TryMove moves to target from any of from. It returns the state after
// the attempt, and an error wrapping ErrInvalidMove when no move was made.
func (m *Machine) TryMove(from []State, target State) (State, error) {
	for _, f := range from {
		if m.state.CompareAndSwap(uint32(f), uint32(target)) {
			return target, nil
		}
	}
	cur := m.Get()
	return cur, fmt.Errorf("%w: cannot move from %s to %s", ErrInvalidMove, cur, target)
}

// Set moves to target whatever the state.
func (m *Machine) Set(target State) { m.state.Store(uint32(target)) }

// ErrSoldOut says no seat is left.
var ErrSoldOut = errors.New("sold out")

// Seats sells the seats of a small room. It is safe for concurrent use.
//
// (It is not: Sell checks and takes a seat in two critical sections, so
// two concurrent calls can both sell the last one.)
type Seats struct {
	mu   sync.Mutex
	left int
}

// NewSeats returns a room of one seat.
func NewSeats() *Seats { return &Seats{left: 1} }

// Sell sells a seat and returns how many are left.
func (s *Seats) Sell() (int, error) {
	s.mu.Lock()
	n := s.left
	s.mu.Unlock()
	if n == 0 {
		return 0, fmt.Errorf("%w: %d sold", ErrSoldOut, 1)
	}
	s.mu.Lock()
	s.left = n - 1
	s.mu.Unlock()
	return n - 1, nil
}
