// Package okstopreleased mirrors failafterreturn: the test checks that
// Stop waits for a busy worker, then releases the worker and waits for
// the goroutine that checks Stop's error before it returns.
package okstopreleased

import (
	"errors"
	"testing"
	"time"
)

type pool struct {
	done  chan struct{}
	grace time.Duration
}

func (p *pool) run(work func()) {
	go func() {
		work()
		close(p.done)
	}()
}

func (p *pool) Stop() error {
	select {
	case <-p.done:
		return nil
	case <-time.After(p.grace):
		return errors.New("stop: worker still busy after the grace period")
	}
}

type errorer interface{ Errorf(string, ...any) }

func noError(t errorer, err error) {
	if err != nil {
		t.Errorf("unexpected error: %v", err)
	}
}

func TestStopWaits(t *testing.T) {
	p := &pool{done: make(chan struct{}), grace: 5 * time.Second}
	busy := make(chan struct{})
	p.run(func() { <-busy })
	stopped := make(chan struct{})
	go func() {
		noError(t, p.Stop())
		close(stopped)
	}()
	select {
	case <-stopped:
		t.Fatal("Stop returned while the worker was busy")
	case <-time.After(20 * time.Millisecond):
	}
	close(busy)
	<-stopped
}
