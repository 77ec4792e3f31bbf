// Package fanin holds fan-in bugs whose unperturbed schedule fails too
// (issue 21): plain go test passes the first (exit 0), fails the second
// and the third (a subtest calls its parent's t.Fatalf); all are findings.
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

// store is a map of counts behind a lock.
type store struct {
	mu sync.Mutex
	m  map[string]int
}

func (s *store) get(key string) (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[key]
	return v, ok
}

// TestSubtestFailsParent: the helper captures the parent's t, and the
// subtest calls it, so its t.Fatalf is the parent's FailNow, called from
// the subtest's goroutine. go test fails the test ("subtest may have
// called FailNow on a parent test") and ends the parent's t.Run; interleave
// once told it as a hang of that t.Run.
func TestSubtestFailsParent(t *testing.T) {
	mustGet := func(s *store, key string) int {
		v, ok := s.get(key)
		if !ok {
			t.Fatalf("no entry for %q", key)
		}
		return v
	}
	t.Run("reads a key nobody stored", func(t *testing.T) {
		s := &store{m: map[string]int{"a": 1}}
		if got := mustGet(s, "a") + mustGet(s, "b"); got != 1 {
			t.Errorf("got %d, want 1", got)
		}
	})
}
