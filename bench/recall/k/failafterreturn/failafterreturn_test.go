// Package failafterreturn: a test checks that Stop waits for a busy
// worker and returns without waiting itself; the goroutine it left checks
// Stop's error through an assertion helper, which fails the test when
// Stop gives up on the worker after its grace period, long after the test
// returned (testing: "Fail in goroutine after TestStopWaits has
// completed" when the test binary still runs then).
package failafterreturn

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
	p.run(func() { <-busy }) // never released
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
}
