// Package sendclosedracer: Close cancels the producer and closes its
// channel at once. A producer that reaches its select after both finds
// two ready cases and may pick the send: a send on a closed channel.
package sendclosedracer

import (
	"context"
	"testing"
)

type Stream struct {
	out    chan int
	cancel context.CancelFunc
}

func Open() *Stream {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Stream{out: make(chan int), cancel: cancel}
	go func() {
		for i := 0; ; i++ {
			select {
			case <-ctx.Done():
				return
			case s.out <- i * i:
			}
		}
	}()
	return s
}

func (s *Stream) Close() {
	s.cancel()
	close(s.out) // the producer may still be about to select
}

func TestFirstThree(t *testing.T) {
	s := Open()
	for i := range 3 {
		if v := <-s.out; v != i*i {
			t.Fatalf("got %d", v)
		}
	}
	s.Close()
}
