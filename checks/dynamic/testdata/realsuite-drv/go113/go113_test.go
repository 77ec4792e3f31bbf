// Package go113 is a module whose go.mod says go 1.13, before generics:
// the runtime injected into it is generic and must compile all the same.
package go113

import (
	"sync"
	"testing"
	"time"
)

func TestPipeline(t *testing.T) {
	in := make(chan int)
	out := make(chan int, 1)
	var wg sync.WaitGroup
	var mu sync.Mutex
	sum := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for v := range in {
			mu.Lock()
			sum += v
			mu.Unlock()
		}
		out <- sum
	}()
	for i := 1; i <= 3; i++ {
		select {
		case in <- i:
		case <-time.After(time.Second):
			t.Fatal("no receiver")
		}
	}
	close(in)
	wg.Wait()
	if got := <-out; got != 6 {
		t.Fatalf("sum %d, want 6", got)
	}
}
