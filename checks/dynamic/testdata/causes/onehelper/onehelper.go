// Package onehelper has one lost update, in Deposit (it reads with
// Balance, then writes with set, each under the lock), which two tests
// reach with their own amounts and assertions: one cause, one finding.
package onehelper

import "sync"

// Account holds a balance and the history of its values.
type Account struct {
	mu      sync.Mutex
	n       int
	history []int
}

// Balance returns the balance.
func (a *Account) Balance() int { a.mu.Lock(); defer a.mu.Unlock(); return a.n }

func (a *Account) set(n int) {
	a.mu.Lock()
	a.n = n
	a.history = append(a.history, n)
	a.mu.Unlock()
}

// Deposit adds k: a deposit between its read and its write is lost.
func (a *Account) Deposit(k int) { a.set(a.Balance() + k) }
