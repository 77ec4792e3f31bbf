// Package poolreuse: the formatter puts its buffer back into the sync.Pool
// right after handing it to the consumer, who still reads it; the next
// formatter can get the same buffer and overwrite it.
package poolreuse

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
	e.bufs.Put(b) // the consumer still owns it
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
	}
	if !got["event 1"] || !got["event 2"] {
		t.Fatalf("got %v, want event 1 and event 2", got)
	}
}
