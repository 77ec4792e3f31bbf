package bound

import (
	"sync"
	"testing"
)

// Ten thousand tasks through a small pool: long, but finite.
func TestManyTasks(t *testing.T) {
	tasks := make(chan int)
	var mu sync.Mutex
	sum := 0
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for v := range tasks {
				mu.Lock()
				sum += v
				mu.Unlock()
			}
		}()
	}
	for i := 1; i <= 10000; i++ {
		tasks <- i
	}
	close(tasks)
	wg.Wait()
	if sum != 10000*10001/2 {
		t.Fatalf("sum = %d", sum)
	}
}
