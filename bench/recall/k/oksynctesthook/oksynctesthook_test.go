// Package oksynctesthook: a client whose cancellation hook runs on a
// goroutine of its own and logs on the test's T. synctest.Test waits for
// the bubble's goroutines (after the cleanups registered in the bubble),
// so the hook always logs before the test completes.
package oksynctesthook

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

type client struct {
	onCancel func(id int)
	calls    chan int
}

// call waits for a reply that never comes until ctx ends, then runs the
// hook on a goroutine of its own, as a client that notifies the server.
func (c *client) call(ctx context.Context, id int) error {
	select {
	case <-c.calls:
		return nil
	case <-ctx.Done():
		go c.onCancel(id)
		return ctx.Err()
	}
}

func TestHook(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		stop := make(chan struct{})
		t.Cleanup(func() { close(stop) })
		go func() { <-stop }() // a watcher the cleanup stops
		c := &client{calls: make(chan int), onCancel: func(id int) {
			t.Logf("cancelled %d", id)
		}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := c.call(ctx, 1); err != context.DeadlineExceeded {
			t.Errorf("call: %v, want %v", err, context.DeadlineExceeded)
		}
	})
}
