package corpus

import "sync"

// Ledger hands out numbers and keeps the names that claimed one. It is
// safe for concurrent use.
//
// (It is not, twice over: Claim checks and inserts under two critical
// sections, so two Claims of one name both succeed; Claimed reads the
// count Claim writes without the lock, a data race. Two causes in one
// type, which one short search finds and gen replays both.)
type Ledger struct {
	mu      sync.Mutex
	next    int
	count   int
	claimed map[string]bool
}

// NewLedger returns a ledger starting at 1.
func NewLedger() *Ledger { return &Ledger{claimed: map[string]bool{}} }

// Next returns the next number.
func (l *Ledger) Next() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.next++
	return l.next
}

// Claim records name and reports whether it was new.
func (l *Ledger) Claim(name string) bool {
	l.mu.Lock()
	had := l.claimed[name]
	l.mu.Unlock()
	if had {
		return false
	}
	l.mu.Lock()
	l.claimed[name] = true
	l.count++
	l.mu.Unlock()
	return true
}

// Claimed is how many names claimed a number.
func (l *Ledger) Claimed() int { return l.count }
