// Package vetme calls WaitGroup.Add inside the goroutine it counts.
package vetme

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
