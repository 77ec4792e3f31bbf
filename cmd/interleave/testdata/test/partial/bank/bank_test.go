package bank

import (
	"sync"
	"testing"
)

func TestPayNeverOverdraws(t *testing.T) {
	var a Account
	a.Deposit(100)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.Pay(100)
		}()
	}
	wg.Wait()
	if b := a.Balance(); b < 0 {
		t.Fatalf("balance %d after two payments of 100 from 100", b)
	}
}
