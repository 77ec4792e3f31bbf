// Package okafterfuncselect: afterfuncclose's deadline tells the caller
// through a channel of its own, and the worker's buffered send never
// meets a closed channel.
package okafterfuncselect

import (
	"testing"
	"time"
)

func run(work func() int, d time.Duration) (int, bool) {
	out := make(chan int, 1)
	expired := make(chan struct{})
	t := time.AfterFunc(d, func() { close(expired) })
	defer t.Stop()
	go func() { out <- work() }()
	select {
	case v := <-out:
		return v, true
	case <-expired:
		return 0, false
	}
}

func TestRun(t *testing.T) {
	if v, ok := run(func() int { return 7 }, 100*time.Millisecond); ok && v != 7 {
		t.Fatalf("v = %d", v)
	}
}
