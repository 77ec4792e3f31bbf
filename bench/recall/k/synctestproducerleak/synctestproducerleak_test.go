// Package synctestproducerleak: inside a testing/synctest bubble, the
// producer checks the context before its send instead of selecting on it;
// the client cancels between the check and the send, the caller takes
// ctx.Done, and the producer blocks on the send for good (the bubble
// panics: blocked goroutines remain).
package synctestproducerleak

import (
	"context"
	"testing"
	"testing/synctest"
)

func fetch(ctx context.Context) (int, error) {
	res := make(chan int)
	go func() {
		if ctx.Err() != nil {
			return
		}
		res <- 42 // should select on ctx.Done too
	}()
	select {
	case v := <-res:
		return v, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

func TestFetch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		go cancel() // the client goes away
		if v, err := fetch(ctx); err == nil && v != 42 {
			t.Fatalf("v = %d", v)
		}
	})
}
