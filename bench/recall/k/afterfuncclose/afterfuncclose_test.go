// Package afterfuncclose: a time.AfterFunc closes the results channel
// when the deadline passes, and the worker sends on it when it is done:
// a worker slower than the deadline sends on a closed channel.
package afterfuncclose

import (
	"testing"
	"time"
)

func run(work func() int, d time.Duration) <-chan int {
	out := make(chan int, 1)
	time.AfterFunc(d, func() { close(out) }) // should tell the worker instead
	go func() { out <- work() }()
	return out
}

func TestRun(t *testing.T) {
	v, ok := <-run(func() int { return 7 }, 100*time.Millisecond)
	if ok && v != 7 {
		t.Fatalf("v = %d", v)
	}
}
