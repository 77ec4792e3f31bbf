// Package tick is a dependency with time operations in generic code and a
// timer type that embeds *time.Timer.
package tick

import (
	"context"
	"sync"
	"time"
)

// Timer embeds *time.Timer: Stop and Reset are promoted.
type Timer struct{ *time.Timer }

// Stopper is what callers see of a Timer.
type Stopper interface {
	Stop() bool
	Reset(d time.Duration) bool
}

// Later runs f after d.
func Later(d time.Duration, f func()) Stopper { return Timer{time.AfterFunc(d, f)} }

// Box holds a value and when it was set.
type Box[T any] struct {
	mu  sync.Mutex
	v   T
	set time.Time
}

// Put stores v.
func (b *Box[T]) Put(v T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.v, b.set = v, time.Now()
}

// Age is how long ago the value was set.
func (b *Box[T]) Age() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	return time.Since(b.set)
}

// Wait waits for ch or d, whichever comes first.
func Wait[T any](ctx context.Context, ch <-chan T, d time.Duration) (T, bool) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	t := time.NewTimer(d)
	defer t.Stop()
	var zero T
	select {
	case v := <-ch:
		return v, true
	case <-t.C:
		return zero, false
	case <-ctx.Done():
		return zero, false
	}
}

// Ticking embeds a generic-free ticker.
type Ticking[T any] struct {
	*time.Ticker
	Last T
}

// Every returns a ticker of period d.
func Every[T any](d time.Duration) *Ticking[T] { return &Ticking[T]{Ticker: time.NewTicker(d)} }

// WaitCause is Wait with a cause for the timeout.
func WaitCause[T any](ctx context.Context, ch <-chan T, d time.Duration, cause error) (T, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, d, cause)
	defer cancel()
	select {
	case v := <-ch:
		return v, nil
	case <-ctx.Done():
		var zero T
		return zero, context.Cause(ctx)
	}
}
