// Package racy calls WaitGroup.Add inside the goroutine it counts.
package racy

import "sync"

// Spawn runs f in a goroutine and waits for it, wrongly.
func Spawn(f func()) {
	var wg sync.WaitGroup
	go func() {
		wg.Add(1)
		defer wg.Done()
		f()
	}()
	wg.Wait()
}

// Noop carries a directive without a reason.
func Noop() {
	//interleave:ignore IL6101
}
