// Package testctx: workers that stop when t.Context() is cancelled, which
// go test does when the test's function returns.
package testctx

import (
	"context"
	"sync"
	"testing"
)

// pool runs workers until ctx is cancelled.
type pool struct {
	jobs    chan int
	results chan int
}

func start(ctx context.Context, workers int) *pool {
	p := &pool{jobs: make(chan int), results: make(chan int)}
	for i := 0; i < workers; i++ {
		go func() {
			for {
				select {
				case <-ctx.Done():
					return
				case j := <-p.jobs:
					select {
					case p.results <- 2 * j:
					case <-ctx.Done():
						return
					}
				}
			}
		}()
	}
	return p
}

// TestWorkersStopWithTest is correct: the workers stop when go test
// cancels t.Context(), after the function returns.
func TestWorkersStopWithTest(t *testing.T) {
	p := start(t.Context(), 3)
	sum := 0
	for i := 1; i <= 4; i++ {
		p.jobs <- i
		sum += <-p.results
	}
	if sum != 20 {
		t.Errorf("sum = %d, want 20", sum)
	}
	var mu sync.Mutex
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		if t.Context().Err() == nil {
			t.Error("t.Context() not cancelled before the cleanups")
		}
	})
}

// TestSubtestWorkers is correct: each subtest's workers stop with its
// own t.Context().
func TestSubtestWorkers(t *testing.T) {
	for _, n := range []string{"a", "b"} {
		t.Run(n, func(t *testing.T) {
			t.Parallel()
			p := start(t.Context(), 2)
			p.jobs <- 1
			if got := <-p.results; got != 2 {
				t.Errorf("got %d, want 2", got)
			}
		})
	}
}

// TestLeakBesideWorkers leaks a goroutine that does not wait on
// t.Context(): it sends the last result nobody reads (the test returns on
// the first). go test passes it; the goroutine stays blocked.
func TestLeakBesideWorkers(t *testing.T) {
	p := start(t.Context(), 2)
	p.jobs <- 1
	<-p.results
	out := make(chan int)
	for i := 0; i < 2; i++ {
		go func() { out <- i }()
	}
	<-out
}
