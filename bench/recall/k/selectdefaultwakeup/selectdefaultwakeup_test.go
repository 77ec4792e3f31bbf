// Package selectdefaultwakeup: the notifier drops its wakeup when nobody is
// receiving (select with default); the waiter checks the state and then
// receives, so a wakeup between the two is lost.
package selectdefaultwakeup

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
	default: // nobody listening: the wakeup is dropped
	}
}

func (j *job) wait() {
	if !j.done.Load() {
		<-j.wake // blocks forever when finish ran between the check and here
	}
}

func TestWait(t *testing.T) {
	j := &job{wake: make(chan struct{})}
	go j.finish()
	j.wait()
}
