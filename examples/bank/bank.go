package bank

import (
	"fmt"
	"sync"
	"sync/atomic"
)

// Bank holds accounts and records every movement in its ledger.
type Bank struct {
	mu       sync.Mutex
	accounts map[string]*Account // guarded by mu
	ledger   *Ledger

	transfers int64 // updated atomically
}

// New returns an empty bank.
func New() *Bank {
	b := &Bank{accounts: map[string]*Account{}}
	b.ledger = NewLedger(b)
	return b
}

// Open creates an account and records the opening deposit.
//
// Lock order here: Bank.mu, then Ledger.mu (through Record).
func (b *Bank) Open(id string, opening int64) (*Account, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.accounts[id]; ok {
		return nil, fmt.Errorf("open %s: account exists", id)
	}
	a := NewAccount(id, opening)
	b.accounts[id] = a
	b.ledger.Record(Entry{To: id, Amount: opening})
	return a, nil
}

// Account returns the account with the given id, or nil.
func (b *Bank) Account(id string) *Account {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.accounts[id]
}

// NumAccounts returns how many accounts are open.
func (b *Bank) NumAccounts() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.accounts)
}

// Transfer moves amount from one account to another atomically.
//
// BUG(deadlock): it locks from.mu then to.mu. Transfer(a, b) and
// Transfer(b, a) running at the same time can each hold one lock and wait
// for the other forever. Locking in a global order (by ID) fixes it.
func (b *Bank) Transfer(from, to *Account, amount int64) error {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	if from.balance < amount {
		return ErrInsufficientFunds
	}
	from.balance -= amount
	to.balance += amount
	atomic.AddInt64(&b.transfers, 1)
	b.ledger.Record(Entry{From: from.ID, To: to.ID, Amount: amount})
	return nil
}

// Transfers returns how many transfers succeeded.
//
// BUG(IL3001): b.transfers is updated with atomic.AddInt64 in Transfer but
// read plainly here.
func (b *Bank) Transfers() int64 {
	return b.transfers
}

// Audit reports whether the ledger has an opening entry for every account.
func (b *Bank) Audit() bool { return b.ledger.Audit() }
