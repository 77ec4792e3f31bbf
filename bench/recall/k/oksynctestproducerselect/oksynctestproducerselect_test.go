// Package oksynctestproducerselect: the producer's send is a case beside
// ctx.Done. Must not be reported.
package oksynctestproducerselect

import (
	"context"
	"testing"
	"testing/synctest"
)

func fetch(ctx context.Context) (int, error) {
	res := make(chan int)
	go func() {
		select {
		case res <- 42:
		case <-ctx.Done():
		}
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
