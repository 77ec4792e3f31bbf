// Package atomicvaluetypes: the first error is kept in an atomic.Value,
// checked with Load and then Stored. Two workers failing with errors of
// different concrete types can both see it empty, and the second Store
// panics: an atomic.Value holds values of one concrete type.
package atomicvaluetypes

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

type timeoutError struct{ op string }

func (e *timeoutError) Error() string { return e.op + ": timeout" }

type job struct {
	firstErr atomic.Value
}

func (j *job) fail(err error) {
	if j.firstErr.Load() == nil {
		j.firstErr.Store(err) // another type may have been stored meanwhile
	}
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
	if j.firstErr.Load() == nil {
		t.Fatal("no error recorded")
	}
}
