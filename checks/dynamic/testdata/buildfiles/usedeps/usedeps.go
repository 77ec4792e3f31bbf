// Package usedeps waits on the timers of two dependencies older than the
// runtime's generic API.
package usedeps

import (
	"context"
	"sync"
	"time"

	"example.com/nogoline"
	"example.com/oldclock"
)

// Counter counts the callers a limiter let through.
type Counter struct {
	L *nogoline.Limiter

	mu sync.Mutex
	n  int
}

// Add waits for the limiter, then counts one. The read and the write are
// two critical sections: two callers may both read the same n (the bug).
func (c *Counter) Add(ctx context.Context) error {
	if err := c.L.Wait(ctx); err != nil {
		return err
	}
	c.mu.Lock()
	n := c.n
	c.mu.Unlock()
	c.mu.Lock()
	c.n = n + 1
	c.mu.Unlock()
	return nil
}

// N is the count.
func (c *Counter) N() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Collect takes tickets from t in two goroutines and returns them in the
// order they arrived, waiting at most d for each.
func Collect(t *oldclock.Ticket, d time.Duration) ([]int, bool) {
	ch := make(chan int)
	for i := 0; i < 2; i++ {
		go func() { ch <- t.Next() }()
	}
	var got []int
	for i := 0; i < 2; i++ {
		v, ok := oldclock.Within(ch, d)
		if !ok {
			return got, false
		}
		got = append(got, v)
	}
	return got, true
}

// Stop stops a timer of oldclock's.
func Stop(d time.Duration) bool { return oldclock.Stopper(d)() }
