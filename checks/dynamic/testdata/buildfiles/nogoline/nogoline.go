// Package nogoline is a dependency whose go.mod has no go line, which the
// go command reads as go 1.16 (golang.org/x/time v0.3.0's go.mod is such a
// one).
package nogoline

import (
	"context"
	"sync"
	"time"
)

// Limiter lets one caller through per Every.
type Limiter struct {
	Every time.Duration

	mu   sync.Mutex
	next time.Time
}

// Wait blocks until the caller may go on, or ctx ends.
func (l *Limiter) Wait(ctx context.Context) error {
	l.mu.Lock()
	now := time.Now()
	if l.next.Before(now) {
		l.next = now
	}
	at := l.next
	l.next = l.next.Add(l.Every)
	l.mu.Unlock()
	t := time.NewTimer(time.Until(at))
	stop := t.Stop // a method value: a generic call of the runtime
	defer stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Deadline runs f with a context that ends after d.
func Deadline(d time.Duration, f func(context.Context)) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	f(ctx)
}
