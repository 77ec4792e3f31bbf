// Package okwaitafteradds: every Add happens before its goroutine starts,
// and the closer starts after the Adds. Must not be reported.
package okwaitafteradds

import (
	"sync"
	"testing"
)

func squares(n int) <-chan int {
	results := make(chan int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- i * i
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	return results
}

func TestSquares(t *testing.T) {
	sum := 0
	for v := range squares(3) {
		sum += v
	}
	if sum != 5 {
		t.Fatalf("sum %d, want 5", sum)
	}
}
