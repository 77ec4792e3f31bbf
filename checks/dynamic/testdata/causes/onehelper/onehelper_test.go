package onehelper

import (
	"sync"
	"testing"
)

// deposit runs Deposit(k) on a from n goroutines at once.
func deposit(a *Account, n, k int) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); a.Deposit(k) }()
	}
	wg.Wait()
}

func TestDepositOnes(t *testing.T) {
	var a Account
	deposit(&a, 3, 1)
	if got := a.Balance(); got != 3 {
		t.Fatalf("balance %d after three deposits of 1, want 3", got)
	}
}

func TestDepositTens(t *testing.T) {
	var a Account
	deposit(&a, 3, 10)
	if got := a.Balance(); got != 30 {
		t.Errorf("balance %d after three deposits of 10, want 30", got)
	}
}
