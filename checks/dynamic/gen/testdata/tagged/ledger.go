//go:build interleavegentag

package tagged

import "sync"

// Ledger holds two amounts that move between each other. It is safe for
// concurrent use.
//
// (Credit and Debit take the two locks in opposite orders.)
type Ledger struct {
	a, b     sync.Mutex
	inA, inB int
}

// Credit moves n from b to a.
func (l *Ledger) Credit(n int) {
	l.a.Lock()
	defer l.a.Unlock()
	l.b.Lock()
	defer l.b.Unlock()
	l.inB -= n
	l.inA += n
}

// Debit moves n from a to b.
func (l *Ledger) Debit(n int) {
	l.b.Lock()
	defer l.b.Unlock()
	l.a.Lock()
	defer l.a.Unlock()
	l.inA -= n
	l.inB += n
}
