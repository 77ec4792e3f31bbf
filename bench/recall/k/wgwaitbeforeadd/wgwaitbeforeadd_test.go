// Package wgwaitbeforeadd: the goroutine that waits and closes the results
// is started before the workers are added, so its Wait can return at once.
package wgwaitbeforeadd

import (
	"sync"
	"testing"
)

func squares(n int) <-chan int {
	results := make(chan int, n)
	var wg sync.WaitGroup
	go func() {
		wg.Wait() // may run before the Adds below
		close(results)
	}()
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- i * i // send on closed channel
		}()
	}
	return results
}

func TestSquares(t *testing.T) {
	sum := 0
	for v := range squares(3) {
		sum += v
	}
	if sum > 5 {
		t.Fatalf("sum %d", sum)
	}
}
