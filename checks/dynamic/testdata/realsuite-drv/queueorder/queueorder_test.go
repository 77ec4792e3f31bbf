// Package queueorder: takers send what they took on one unbuffered
// channel and the test reads it in that order (ratelimit's TestInitial).
// The runtime queues blocked senders first in, first out, so plain go
// test nearly always passes; a taker delayed between its turn and its
// send makes the reports come out of order. The unperturbed schedule
// pairs the sender that queued first and passes; the search finds the
// delayed taker.
package queueorder

import (
	"sort"
	"sync"
	"testing"
)

// takeTurns starts three takers that each take a turn under mu and send
// it on reports, and returns once all three have started.
func takeTurns() chan int {
	var mu sync.Mutex
	var started sync.WaitGroup
	turn := 0
	reports := make(chan int)
	started.Add(3)
	for i := 0; i < 3; i++ {
		go func() {
			started.Done()
			mu.Lock()
			turn++
			n := turn
			mu.Unlock()
			reports <- n
		}()
	}
	started.Wait()
	return reports
}

// TestReportsInTurnOrder reads the reports as if they came in turn
// order: a bug of the test, which the search finds.
func TestReportsInTurnOrder(t *testing.T) {
	reports := takeTurns()
	for want := 1; want <= 3; want++ {
		if got := <-reports; got != want {
			t.Errorf("report %d came in place %d", got, want)
		}
	}
}

// TestReportsByTurn sorts them first: correct on every schedule.
func TestReportsByTurn(t *testing.T) {
	reports := takeTurns()
	got := []int{<-reports, <-reports, <-reports}
	sort.Ints(got)
	for i, n := range got {
		if n != i+1 {
			t.Errorf("turns %v, want 1 2 3", got)
		}
	}
}
