// Package semaphoreleak: a token taken from a channel semaphore is not
// given back on the error path, so the next caller waits forever.
package semaphoreleak

import (
	"errors"
	"sync/atomic"
	"testing"
)

type limiter struct {
	sem   chan struct{}
	ready atomic.Bool
}

func (l *limiter) do() error {
	l.sem <- struct{}{}
	if !l.ready.Load() {
		return errors.New("not ready") // keeps the token
	}
	<-l.sem
	return nil
}

func TestLimiter(t *testing.T) {
	l := &limiter{sem: make(chan struct{}, 1)}
	done := make(chan error, 1)
	go func() { done <- l.do() }()
	l.ready.Store(true)
	if err := l.do(); err != nil {
		t.Fatal(err)
	}
	<-done
	if err := l.do(); err != nil {
		t.Fatal(err)
	}
}
