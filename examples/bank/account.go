// Package bank is a small account and ledger service with concurrency bugs
// seeded on purpose, for trying interleave. README.md lists them.
package bank

import (
	"errors"
	"sync"
)

// ErrInsufficientFunds is returned when a withdrawal would overdraw.
var ErrInsufficientFunds = errors.New("insufficient funds")

// Account holds a balance in cents. It is safe for concurrent use.
type Account struct {
	ID string

	mu      sync.Mutex
	balance int64 // guarded by mu
	history []int64
}

// NewAccount returns an account with an opening balance.
func NewAccount(id string, opening int64) *Account {
	return &Account{ID: id, balance: opening}
}

// Deposit adds amount to the balance.
func (a *Account) Deposit(amount int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance += amount
	a.history = append(a.history, amount)
}

// Withdraw removes amount from the balance, or fails without changing it.
func (a *Account) Withdraw(amount int64) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.balance < amount {
		return ErrInsufficientFunds
	}
	a.balance -= amount
	a.history = append(a.history, -amount)
	return nil
}

// Balance returns the current balance.
//
// BUG(IL5003): reads a.balance without a.mu, which every other access holds.
func (a *Account) Balance() int64 {
	return a.balance
}

// AddInterest credits interest at rate percent, rounded down.
//
// BUG(lost update): the balance is read through Balance (no lock) and the
// credit is computed from it; a Deposit that lands in between is applied to
// a stale value and its effect on the interest is lost. A data race too.
func (a *Account) AddInterest(ratePercent int64) {
	interest := a.Balance() * ratePercent / 100
	a.Deposit(interest)
}

// History returns a copy of the movements on the account.
func (a *Account) History() []int64 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]int64(nil), a.history...)
}
