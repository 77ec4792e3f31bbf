package threads

import (
	"runtime/debug"
	"sync"
	"testing"
)

// parked goroutines outnumber the OS threads the program may have: under
// go test a goroutine blocked on a channel or a WaitGroup holds no thread,
// so neither may one waiting for its turn under the scheduler.
const (
	maxThreads = 200
	parked     = 300
)

func TestManyParked(t *testing.T) {
	defer debug.SetMaxThreads(debug.SetMaxThreads(maxThreads))
	start := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	sum := 0
	for i := 0; i < parked; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			mu.Lock()
			sum += i
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	if want := parked * (parked - 1) / 2; sum != want {
		t.Fatalf("sum %d, want %d", sum, want)
	}
}
