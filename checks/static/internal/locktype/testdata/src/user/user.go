// Package user builds lock types on those of package locks: delegating
// to a plain one is a lock, to a conditional one is not.
package user

import "locks"

type Named struct { // want Named:`lock \[Lock Unlock\]`
	m    locks.Mutex
	name string
}

func (n *Named) Lock()   { n.m.Lock() }
func (n *Named) Unlock() { n.m.Unlock() }

// Outer delegates to Named, a lock of this package.
type Outer struct { // want Outer:`lock \[Lock Unlock\]`
	n Named
}

func (o *Outer) Lock()   { o.n.Lock() }
func (o *Outer) Unlock() { o.n.Unlock() }

// Wrapped embeds a plain lock of package locks.
type Wrapped struct { // want Wrapped:`lock \[Lock Unlock\]`
	locks.Mutex
}

// Maybe delegates to a conditional lock.
type Maybe struct{ c locks.Cond }

func (m *Maybe) Lock()   { m.c.Lock() }
func (m *Maybe) Unlock() { m.c.Unlock() }

// EmbedsCond embeds one.
type EmbedsCond struct{ locks.Cond }
