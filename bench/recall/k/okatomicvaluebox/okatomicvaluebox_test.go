// Package okatomicvaluebox: the first error is boxed in one struct type and
// recorded with CompareAndSwap. Must not be reported.
package okatomicvaluebox

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

type timeoutError struct{ op string }

func (e *timeoutError) Error() string { return e.op + ": timeout" }

type errBox struct{ err error }

type job struct {
	firstErr atomic.Value
}

func (j *job) fail(err error) {
	j.firstErr.CompareAndSwap(nil, errBox{err})
}

func TestFirstError(t *testing.T) {
	var j job
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		j.fail(&timeoutError{op: "dial"})
	}()
	go func() {
		defer wg.Done()
		j.fail(errors.New("connection refused"))
	}()
	wg.Wait()
	if b, ok := j.firstErr.Load().(errBox); !ok || b.err == nil {
		t.Fatal("no error recorded")
	}
}
