//go:build go1.21

package rt

import (
	"context"
	"time"
)

// WithTimeoutCause is context.WithTimeoutCause (Go 1.21): under control
// the deadline is on the virtual clock, as WithTimeout's.
func WithTimeoutCause(parent context.Context, d time.Duration, cause error) (context.Context, context.CancelFunc) {
	if current() == nil {
		return context.WithTimeoutCause(parent, d, cause)
	}
	return withDeadline(parent, Now().Add(d), d, func(p context.Context, d time.Time) (context.Context, context.CancelFunc) {
		return context.WithDeadlineCause(p, d, cause)
	})
}

// WithDeadlineCause is context.WithDeadlineCause (Go 1.21): under control
// the deadline is on the virtual clock, as WithDeadline's.
func WithDeadlineCause(parent context.Context, dl time.Time, cause error) (context.Context, context.CancelFunc) {
	return withDeadline(parent, dl, 0, func(p context.Context, d time.Time) (context.Context, context.CancelFunc) {
		return context.WithDeadlineCause(p, d, cause)
	})
}
