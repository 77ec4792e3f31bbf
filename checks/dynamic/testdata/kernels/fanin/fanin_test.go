// Package fanin holds fan-in bugs whose unperturbed schedule fails too:
// plain go test passes the first (exit 0) and fails the second, and both
// are findings (issue 21).
package fanin

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// firstError runs the jobs concurrently and returns the first error.
func firstError(jobs ...func() error) error {
	errc := make(chan error) // should be buffered: make(chan error, len(jobs))
	for _, job := range jobs {
		go func() { errc <- job() }()
	}
	for range jobs {
		if err := <-errc; err != nil {
			return err // the other senders block forever
		}
	}
	return nil
}

// TestFirstErrorStrandsSender passes under plain go test, but the job
// that reports after the first error is blocked on its send forever.
func TestFirstErrorStrandsSender(t *testing.T) {
	started := make(chan struct{})
	err := firstError(
		func() error { close(started); return errors.New("bad input") },
		func() error { <-started; return nil },
	)
	if err == nil {
		t.Fatal("firstError returned nil, want the job's error")
	}
}

// sumAll adds the values in goroutines, but calls Add inside them: Wait
// can return before any has started.
func sumAll(vals ...int64) int64 {
	var wg sync.WaitGroup
	var sum atomic.Int64
	for _, v := range vals {
		go func() {
			wg.Add(1) // should be before the go statement
			defer wg.Done()
			sum.Add(v)
		}()
	}
	wg.Wait()
	return sum.Load()
}

func TestSumWaitGroupAddInside(t *testing.T) {
	if got := sumAll(1, 2, 3); got != 6 {
		t.Errorf("sum = %d, want 6", got)
	}
}
