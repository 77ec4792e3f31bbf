// Package oncetooearly: Once.Do runs the initialization at the first call,
// and a call that comes before the configuration is loaded leaves the
// client nil for good.
package oncetooearly

import (
	"sync"
	"sync/atomic"
	"testing"
)

type client struct{ endpoint string }

type lazy struct {
	once     sync.Once
	endpoint atomic.Pointer[string]
	c        *client
}

func (l *lazy) get() *client {
	l.once.Do(func() {
		if ep := l.endpoint.Load(); ep != nil {
			l.c = &client{endpoint: *ep}
		}
	})
	return l.c
}

func TestGet(t *testing.T) {
	l := &lazy{}
	done := make(chan string)
	go func() { done <- l.get().endpoint }() // nil pointer when it runs first
	ep := "db:5432"
	l.endpoint.Store(&ep)
	if got := <-done; got != ep {
		t.Fatalf("endpoint %q", got)
	}
}
