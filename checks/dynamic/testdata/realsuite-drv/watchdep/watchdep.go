// Package watchdep plays a library the module under test depends on that
// runs a callback when a context is done: the rewriter leaves its
// context.AfterFunc as written, so the callback runs on a goroutine the
// context package starts, outside the scheduler's control.
package watchdep

import "context"

// OnDone runs f on its own goroutine once ctx is done.
func OnDone(ctx context.Context, f func()) (stop func() bool) {
	return context.AfterFunc(ctx, f)
}
