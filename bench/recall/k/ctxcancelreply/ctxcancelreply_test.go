// Package ctxcancelreply: the caller gives up when its context is
// cancelled and strands the server's reply on an unbuffered channel.
package ctxcancelreply

import (
	"context"
	"testing"
)

func call(ctx context.Context, req int) (int, error) {
	reply := make(chan int) // should be buffered: make(chan int, 1)
	go func() { reply <- req * 2 }()
	select {
	case v := <-reply:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err() // the server goroutine leaks
	}
}

func TestCall(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { cancel(); close(stopped) }() // a shutdown arriving meanwhile
	if v, err := call(ctx, 21); err == nil && v != 42 {
		t.Fatalf("got %d", v)
	}
	<-stopped
}
