// Package ctxnotobserved: a generator checks its context only between
// sends; once the consumer stops it blocks on the send forever.
package ctxnotobserved

import (
	"context"
	"testing"
)

func numbers(ctx context.Context) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for i := 0; ; i++ {
			if ctx.Err() != nil {
				return
			}
			out <- i // should select on ctx.Done() too
		}
	}()
	return out
}

func TestFirstThree(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum := 0
	for v := range numbers(ctx) {
		sum += v
		if v == 2 {
			break
		}
	}
	if sum != 3 {
		t.Fatalf("sum %d, want 3", sum)
	}
}
