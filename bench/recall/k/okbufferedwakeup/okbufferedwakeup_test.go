// Package okbufferedwakeup: the wakeup channel has room for one signal, so
// a non-blocking send is never lost. Must not be reported.
package okbufferedwakeup

import (
	"sync/atomic"
	"testing"
)

type job struct {
	done atomic.Bool
	wake chan struct{}
}

func (j *job) finish() {
	j.done.Store(true)
	select {
	case j.wake <- struct{}{}:
	default: // a signal is already pending
	}
}

func (j *job) wait() {
	for !j.done.Load() {
		<-j.wake
	}
}

func TestWait(t *testing.T) {
	j := &job{wake: make(chan struct{}, 1)}
	go j.finish()
	j.wait()
}
