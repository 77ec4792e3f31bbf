// Package selectsend: a select's send case on an unbuffered channel
// completes only after the receiver took the value, so what the receiver
// did before receiving happens before the case's body (Go memory model:
// a receive from an unbuffered channel is synchronized before the
// completion of the send). A ticker goroutine that sends its first tick
// and then reads a field the test set before receiving is the shape.
package selectsend

import (
	"context"
	"errors"
	"testing"
)

type ticker struct {
	c     chan int
	stop  chan struct{}
	delay int // set by the test before its first receive
}

func (t *ticker) run(out chan<- int) {
	select {
	case t.c <- 1:
		out <- t.delay
	case <-t.stop:
		out <- -1
	}
}

func TestFieldSetBeforeReceive(t *testing.T) {
	tk := &ticker{c: make(chan int), stop: make(chan struct{})}
	out := make(chan int, 1)
	go tk.run(out)
	tk.delay = 5
	<-tk.c
	if d := <-out; d != 5 {
		t.Fatalf("delay %d", d)
	}
}

func TestEmptySendCase(t *testing.T) {
	c := make(chan int)
	var x int
	done := make(chan int)
	go func() {
		select {
		case c <- 1:
		}
		done <- x
	}()
	x = 1
	<-c
	if <-done != 1 {
		t.Fatal("x not seen")
	}
}

// waitOrCancel blocks on its own select (a scheduling point of the
// sender's, evaluated as a send value).
func waitOrCancel(ctx context.Context, ready chan struct{}) error {
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TestValueOnEntry: a select evaluates its send values on entry, before a
// case is chosen; the value's own scheduling points come first.
func TestValueOnEntry(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	blockCtx, cancelBlock := context.WithCancel(ctx)
	errCh := make(chan error)
	go func() {
		select {
		case errCh <- waitOrCancel(blockCtx, make(chan struct{})):
		case <-ctx.Done():
		}
	}()
	cancelBlock()
	select {
	case err := <-errCh:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("got %v", err)
		}
	case <-ctx.Done():
		t.Error("never received")
	}
}
