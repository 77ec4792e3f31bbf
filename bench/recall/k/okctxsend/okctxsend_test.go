// Package okctxsend: the generator selects on its context at every send.
// Must not be reported.
package okctxsend

import (
	"context"
	"testing"
)

func numbers(ctx context.Context) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for i := 0; ; i++ {
			select {
			case out <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

func TestFirstThree(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := numbers(ctx)
	sum := 0
	for v := range ch {
		sum += v
		if v == 2 {
			break
		}
	}
	cancel()
	for range ch { // wait for the generator to finish
	}
	if sum != 3 {
		t.Fatalf("sum %d, want 3", sum)
	}
}
