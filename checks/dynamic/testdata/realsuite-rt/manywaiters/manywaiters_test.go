package manywaiters

import (
	"sync"
	"testing"
)

// workers each wait on a channel of its own, as a pool's workers wait
// for their next task, while the test hands out one task to each in
// turn. A decision that, for each goroutine blocked on a channel, looked
// at every other goroutine to see whether it had queued there first made
// every decision quadratic in the number of workers: the schedule did not
// fit the budget.
const workers = 1500

func TestManyWaiters(t *testing.T) {
	var wg sync.WaitGroup
	tasks := make([]chan int, workers)
	got := make([]int, workers)
	for i := range tasks {
		tasks[i] = make(chan int)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range tasks[i] {
				got[i] = v
			}
		}()
	}
	for i, ch := range tasks {
		ch <- i + 1
	}
	for _, ch := range tasks {
		close(ch)
	}
	wg.Wait()
	for i, v := range got {
		if v != i+1 {
			t.Fatalf("worker %d got %d", i, v)
		}
	}
}
