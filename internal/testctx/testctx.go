// Package testctx gives tests a context that ends shortly before the test
// binary's own deadline (go test -timeout), so that a hang fails with the
// test's own message and no test carries a wall-clock guard of its own
// that a loaded machine can miss.
package testctx

import (
	"context"
	"testing"
	"time"
)

// New returns a context that ends shortly before the test binary's
// deadline: a tenth of the time left at the call, at most a minute, is
// kept for the test to report what it was doing. Unlike t.Context, it
// may be made and used in a cleanup.
func New(t *testing.T) context.Context {
	d, ok := t.Deadline()
	if !ok {
		return context.Background()
	}
	ctx, cancel := context.WithDeadline(context.Background(), d.Add(-margin(time.Until(d))))
	t.Cleanup(cancel)
	return ctx
}

// margin is the time kept before the deadline when left remains.
func margin(left time.Duration) time.Duration {
	return min(left/10, time.Minute)
}
