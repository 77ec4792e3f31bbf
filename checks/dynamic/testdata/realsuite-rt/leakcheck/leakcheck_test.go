package leakcheck

import (
	"sync"
	"testing"

	"go.uber.org/goleak"
)

type pool struct {
	tasks chan func()
}

func newPool(n int) *pool {
	p := &pool{tasks: make(chan func())}
	for i := 0; i < n; i++ {
		go func() {
			for f := range p.tasks {
				f()
			}
		}()
	}
	return p
}

// The pool's workers end after Close, without being waited for; goleak's
// retry loop (real sleeps, outside control) must see them gone, and must
// not see the scheduler's own goroutines.
func TestVerifyNone(t *testing.T) {
	defer goleak.VerifyNone(t)
	p := newPool(3)
	var wg sync.WaitGroup
	for i := 0; i < 5; i++ {
		wg.Add(1)
		p.tasks <- wg.Done
	}
	wg.Wait()
	close(p.tasks)
}
