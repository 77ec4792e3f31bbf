// Package selectsend: a select's send case on an unbuffered channel
// completes only after the receiver took the value, so what the receiver
// did before receiving happens before the case's body (Go memory model:
// a receive from an unbuffered channel is synchronized before the
// completion of the send). A ticker goroutine that sends its first tick
// and then reads a field the test set before receiving is the shape.
package selectsend

import "testing"

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
