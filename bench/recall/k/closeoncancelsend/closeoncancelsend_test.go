// Package closeoncancelsend: the consumer cancels the producer and closes
// the channel at once; the producer checked its context before the cancel
// and sends after the close.
package closeoncancelsend

import (
	"context"
	"testing"
)

func produce(ctx context.Context, out chan<- int) {
	for i := range 3 {
		if ctx.Err() != nil {
			return
		}
		out <- i // send on closed channel when the close fell after the check
	}
}

func TestFirst(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	results := make(chan int, 3)
	go produce(ctx, results)
	first := <-results
	cancel()
	close(results) // the producer may be between its check and its send
	if first != 0 {
		t.Fatalf("first %d", first)
	}
}
