// Package okringready: the log is guarded by a mutex; a snapshot sees only
// whole entries. Must not be reported.
package okringready

import (
	"sync"
	"testing"
)

type log struct {
	mu    sync.Mutex
	n     int
	slots [8]string
}

func (l *log) append(s string) {
	l.mu.Lock()
	l.slots[l.n] = s
	l.n++
	l.mu.Unlock()
}

func (l *log) snapshot() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]string, l.n)
	copy(out, l.slots[:l.n])
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
