package bank

import "sync"

// Entry is one movement of money; From is empty for a deposit.
type Entry struct {
	From, To string
	Amount   int64
}

// Ledger is the bank's append-only journal.
type Ledger struct {
	bank *Bank

	mu      sync.RWMutex
	entries []Entry          // guarded by mu
	byTo    map[string]int64 // guarded by mu: total received per account
	lookups int              // guarded by mu
}

// NewLedger returns an empty ledger for b.
func NewLedger(b *Bank) *Ledger {
	return &Ledger{bank: b, byTo: map[string]int64{}}
}

// Record appends an entry.
func (l *Ledger) Record(e Entry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, e)
	l.byTo[e.To] += e.Amount
}

// Received returns the total recorded into an account.
//
// BUG(IL2001): counts lookups by writing l.lookups while holding only the
// read lock; two readers race on it.
func (l *Ledger) Received(id string) int64 {
	l.mu.RLock()
	defer l.mu.RUnlock()
	l.lookups++
	return l.byTo[id]
}

// Audit checks that the ledger has an opening entry for every account.
//
// BUG(IL2101): it holds Ledger.mu and then takes Bank.mu (NumAccounts),
// while Open holds Bank.mu and then takes Ledger.mu (Record).
func (l *Ledger) Audit() bool {
	l.mu.RLock()
	defer l.mu.RUnlock()
	opened := 0
	for _, e := range l.entries {
		if e.From == "" {
			opened++
		}
	}
	return opened >= l.bank.NumAccounts()
}

// ResetStats zeroes the lookup counter.
func (l *Ledger) ResetStats() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lookups = 0
}
