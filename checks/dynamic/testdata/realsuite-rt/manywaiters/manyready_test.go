package manywaiters

import (
	"sync"
	"sync/atomic"
	"testing"
)

// workers each wait on a channel of their own, as a pool's workers wait
// for their next task, while the test hands out tasks one by one. A
// decision that, for each goroutine blocked on a channel, looked at every
// other goroutine to see whether it had queued there first made every
// decision quadratic in the number of workers: the schedule did not fit
// the budget.
const workers = 1000

func TestManyWaiters(t *testing.T) {
	var wg sync.WaitGroup
	var sum int64
	tasks := make([]chan int, workers)
	for i := range tasks {
		tasks[i] = make(chan int)
		go func(ch chan int) {
			for v := range ch {
				atomic.AddInt64(&sum, int64(v))
				wg.Done()
			}
		}(tasks[i])
	}
	for i, ch := range tasks {
		wg.Add(1)
		ch <- i
	}
	wg.Wait()
	for _, ch := range tasks {
		close(ch)
	}
	if want := int64(workers * (workers - 1) / 2); atomic.LoadInt64(&sum) != want {
		t.Fatalf("sum %d, want %d", sum, want)
	}
}
