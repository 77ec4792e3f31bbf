// Package oksendclosedwait: sendclosedracer's producer closes its own
// channel when it sees the cancel.
package oksendclosedwait

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
		defer close(s.out)
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
	for range s.out {
	}
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
