// Package ringpublish: writers reserve a slot of a log with an atomic
// counter and bump the published count before they fill the slot; a
// reader takes every slot below the published count and can read one not
// written yet.
package ringpublish

import (
	"sync"
	"sync/atomic"
	"testing"
)

type log struct {
	next      atomic.Int64 // slots reserved
	published atomic.Int64 // slots readable (bumped too early)
	slots     [8]string
}

func (l *log) append(s string) {
	i := l.next.Add(1) - 1
	l.published.Add(1) // should come after the slot is written
	l.slots[i] = s
}

func (l *log) snapshot() []string {
	n := l.published.Load()
	out := make([]string, n)
	copy(out, l.slots[:n])
	return out
}

func TestSnapshot(t *testing.T) {
	var l log
	var wg sync.WaitGroup
	for _, s := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.append(s)
		}()
	}
	for _, s := range l.snapshot() {
		if s == "" {
			t.Fatal("snapshot holds an empty entry")
		}
	}
	wg.Wait()
}
