// Package synctestabba: inside a testing/synctest bubble, two transfers lock
// the accounts in opposite orders. The bubble fixes the clock, not the
// order of the goroutines, and a goroutine blocked on a Mutex is not durably
// blocked: the deadlock hangs the bubble.
package synctestabba

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type account struct {
	mu  sync.Mutex
	bal int
}

func transfer(from, to *account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.bal -= n
	to.bal += n
}

func TestTransfers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a, b := &account{bal: 10}, &account{bal: 10}
		done := make(chan struct{})
		go func() {
			time.Sleep(time.Second) // the nightly settlement
			transfer(b, a, 2)
			close(done)
		}()
		time.Sleep(time.Second)
		transfer(a, b, 3)
		<-done
		if a.bal+b.bal != 20 {
			t.Fatalf("total %d", a.bal+b.bal)
		}
	})
}
