// Package okpoolafteruse: the consumer owns the buffer it receives and
// puts it back after reading it. Must not be reported.
package okpoolafteruse

import (
	"bytes"
	"fmt"
	"sync"
	"testing"
)

type encoder struct {
	bufs sync.Pool
}

func newEncoder() *encoder {
	e := &encoder{}
	e.bufs.New = func() any { return new(bytes.Buffer) }
	return e
}

func (e *encoder) format(id int, out chan<- *bytes.Buffer) {
	b := e.bufs.Get().(*bytes.Buffer)
	b.Reset()
	fmt.Fprintf(b, "event %d", id)
	out <- b
}

func TestEvents(t *testing.T) {
	e := newEncoder()
	out := make(chan *bytes.Buffer)
	for i := 1; i <= 2; i++ {
		go e.format(i, out)
	}
	got := map[string]bool{}
	for range 2 {
		b := <-out
		got[b.String()] = true
		e.bufs.Put(b)
	}
	if !got["event 1"] || !got["event 2"] {
		t.Fatalf("got %v, want event 1 and event 2", got)
	}
}
