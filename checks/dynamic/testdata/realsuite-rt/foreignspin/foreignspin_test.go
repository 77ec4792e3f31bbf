package foreignspin

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"dep"
)

// TestPollersOutsideControl: goroutines a dependency started (errgroup's,
// as a pool's ReleaseContext runs on them) poll the program's state in a
// loop, more of them than there are processors, while a controlled worker
// they wait for takes many scheduling steps. Under go test they share the
// processors with it; under the scheduler each of its hand-offs needs a
// processor too, and when the pollers held them all every step waited for
// the Go runtime to preempt one (about 10ms): the unperturbed schedule
// did not fit the budget.
func TestPollersOutsideControl(t *testing.T) {
	var done int32
	closed := make(chan struct{})
	close(closed)
	var mu sync.Mutex
	n := 0
	go func() {
		for i := 0; i < 500; i++ {
			mu.Lock()
			n++
			mu.Unlock()
		}
		atomic.StoreInt32(&done, 1)
	}()
	var g dep.Group
	for i := 0; i < 4*runtime.GOMAXPROCS(0); i++ {
		g.Go(func() {
			for atomic.LoadInt32(&done) == 0 {
				select {
				case <-closed:
				default:
				}
			}
		})
	}
	g.Wait()
	mu.Lock()
	defer mu.Unlock()
	if n != 500 {
		t.Fatalf("n = %d, want 500", n)
	}
}
