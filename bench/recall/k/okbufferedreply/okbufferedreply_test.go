// Package okbufferedreply: the reply channel has room for the reply, so a
// caller that gives up leaves nothing blocked. Must not be reported.
package okbufferedreply

import (
	"context"
	"testing"
)

func call(ctx context.Context, req int) (int, error) {
	reply := make(chan int, 1)
	go func() { reply <- req * 2 }()
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

func TestCall(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { cancel(); close(stopped) }()
	if v, err := call(ctx, 21); err == nil && v != 42 {
		t.Fatalf("got %d", v)
	}
	<-stopped
}
