package bank

import (
	"context"
	"sync"
	"testing"
)

// TestInterestAndDeposits passes unless a Deposit lands between
// AddInterest's read and its credit (the lost update), which plain go test
// almost never schedules. go test -race reports the data race.
func TestInterestAndDeposits(t *testing.T) {
	a := NewAccount("alice", 1000)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		a.AddInterest(10)
	}()
	go func() {
		defer wg.Done()
		a.Deposit(1000)
	}()
	wg.Wait()
	// Interest before the deposit gives 2100, after it 2200; a lost update
	// gives neither.
	if got := a.Balance(); got != 2100 && got != 2200 {
		t.Fatalf("got balance %d, want 2100 or 2200", got)
	}
}

// TestOppositeTransfers deadlocks when both goroutines take their first
// lock before either takes its second.
func TestOppositeTransfers(t *testing.T) {
	b := New()
	alice, _ := b.Open("alice", 100)
	bob, _ := b.Open("bob", 100)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := b.Transfer(alice, bob, 10); err != nil {
			t.Error(err)
		}
	}()
	go func() {
		defer wg.Done()
		if err := b.Transfer(bob, alice, 20); err != nil {
			t.Error(err)
		}
	}()
	wg.Wait()
	if alice.Balance()+bob.Balance() != 200 {
		t.Fatalf("money created or destroyed: %d + %d", alice.Balance(), bob.Balance())
	}
	if got := b.Transfers(); got != 2 {
		t.Fatalf("got %d transfers, want 2", got)
	}
}

// TestFirstRate passes, and leaves the slower source's goroutine blocked
// on its send forever.
func TestFirstRate(t *testing.T) {
	fast := func(context.Context) (int64, error) { return 3, nil }
	slow := func(ctx context.Context) (int64, error) { return 5, nil }
	got, err := FirstRate(context.Background(), fast, slow)
	if err != nil {
		t.Fatal(err)
	}
	if got != 3 && got != 5 {
		t.Fatalf("got rate %d, want 3 or 5", got)
	}
}

// TestAuditWhileOpening runs Audit next to Open: they take Bank.mu and
// Ledger.mu in opposite orders.
func TestAuditWhileOpening(t *testing.T) {
	b := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		b.Open("carol", 50)
	}()
	go func() {
		defer wg.Done()
		b.Audit()
	}()
	wg.Wait()
	if !b.Audit() {
		t.Fatal("audit failed after every account was opened")
	}
}

// TestReceived reads the ledger from two goroutines: the lookups counter
// is written under the read lock.
func TestReceived(t *testing.T) {
	b := New()
	b.Open("dave", 70)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := b.ledger.Received("dave"); got != 70 {
				t.Errorf("got %d received, want 70", got)
			}
		}()
	}
	wg.Wait()
}
