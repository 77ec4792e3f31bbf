// Package okerrgroupctx: errgrouptimeout's producer selects on the
// group's context.
package okerrgroupctx

import (
	"context"
	"errors"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
)

func sum(ctx context.Context, n int) (int, error) {
	g, ctx := errgroup.WithContext(ctx)
	vals := make(chan int)
	g.Go(func() error {
		defer close(vals)
		for i := range n {
			select {
			case vals <- i:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
	total := 0
	g.Go(func() error {
		for {
			select {
			case v, ok := <-vals:
				if !ok {
					return nil
				}
				total += v
			case <-time.After(50 * time.Millisecond):
				return errors.New("producer too slow")
			}
		}
	})
	err := g.Wait()
	return total, err
}

func TestSum(t *testing.T) {
	total, err := sum(context.Background(), 3)
	if err != nil {
		t.Skip("slow machine:", err)
	}
	if total != 3 {
		t.Fatalf("total = %d", total)
	}
}
