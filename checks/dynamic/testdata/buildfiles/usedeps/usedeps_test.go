package usedeps

import (
	"context"
	"sync"
	"testing"
	"time"

	"example.com/nogoline"
	"example.com/oldclock"
)

// TestCounter loses an update on the schedules that interleave the two
// critical sections of Add.
func TestCounter(t *testing.T) {
	c := &Counter{L: &nogoline.Limiter{}}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			nogoline.Deadline(time.Minute, func(ctx context.Context) {
				if err := c.Add(ctx); err != nil {
					t.Error(err)
				}
			})
		}()
	}
	wg.Wait()
	if n := c.N(); n != 2 {
		t.Fatalf("count %d after two adds", n)
	}
}

// TestTickets is correct on every schedule: the tickets are 1 and 2 in
// some order, well within the hour.
func TestTickets(t *testing.T) {
	got, ok := Collect(&oldclock.Ticket{Every: 10 * time.Millisecond}, time.Hour)
	if !ok || len(got) != 2 || got[0]+got[1] != 3 {
		t.Fatalf("tickets %v (all in time: %v), want 1 and 2", got, ok)
	}
	<-oldclock.After(time.Millisecond)
	if !Stop(time.Hour) {
		t.Error("Stop of a pending timer returned false")
	}
}
