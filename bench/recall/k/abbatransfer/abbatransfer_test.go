// Package abbatransfer: two transfers between the same accounts lock them
// in opposite orders.
package abbatransfer

import (
	"sync"
	"testing"
)

type account struct {
	mu      sync.Mutex
	balance int
}

func transfer(from, to *account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock() // the other transfer holds to.mu and waits for from.mu
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
}

func TestTransfers(t *testing.T) {
	a, b := &account{balance: 10}, &account{balance: 10}
	done := make(chan struct{})
	go func() { transfer(b, a, 4); close(done) }()
	transfer(a, b, 3)
	<-done
	if a.balance+b.balance != 20 {
		t.Fatalf("total %d, want 20", a.balance+b.balance)
	}
}
