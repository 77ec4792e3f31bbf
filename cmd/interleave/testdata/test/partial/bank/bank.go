// Package bank is an account whose every method is locked, and a Pay that
// is not atomic for it: it checks the balance and withdraws in two calls.
package bank

import "sync"

type Account struct {
	mu      sync.Mutex
	balance int
}

func (a *Account) Deposit(n int) {
	a.mu.Lock()
	a.balance += n
	a.mu.Unlock()
}

func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

func (a *Account) withdraw(n int) {
	a.mu.Lock()
	a.balance -= n
	a.mu.Unlock()
}

// Pay withdraws n if the balance covers it. Two Pays can both see the
// balance cover them before either withdraws.
func (a *Account) Pay(n int) bool {
	if a.Balance() < n {
		return false
	}
	a.withdraw(n)
	return true
}
