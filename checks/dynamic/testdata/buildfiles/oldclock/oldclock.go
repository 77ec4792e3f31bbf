// Package oldclock is a dependency whose go.mod says go 1.16: its time
// operations are rewritten into calls of the runtime's API.
package oldclock

import (
	"sync"
	"time"
)

// Ticket hands out numbers no faster than one per Every.
type Ticket struct {
	Every time.Duration

	mu   sync.Mutex
	last time.Time
	n    int
}

// Next waits until Every has passed since the last number, then returns
// the next one.
func (t *Ticket) Next() int {
	t.mu.Lock()
	wait := t.Every - time.Since(t.last)
	t.mu.Unlock()
	if wait > 0 {
		time.Sleep(wait)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.last = time.Now()
	t.n++
	return t.n
}

// Within returns the value ch delivers, or false when d passes first.
func Within(ch <-chan int, d time.Duration) (int, bool) {
	timer := time.NewTimer(d)
	stop := timer.Stop // a method value: a generic call of the runtime
	defer stop()
	select {
	case v := <-ch:
		return v, true
	case <-timer.C:
		return 0, false
	}
}

// After sends on the channel it returns once d has passed.
func After(d time.Duration) <-chan time.Time { return time.After(d) }
