// Package vetbug has a bug the suite's waitgroup pass (go vet's) reports.
package vetbug

import "sync"

// Spawn calls Add inside the goroutine it counts.
func Spawn(f func()) {
	var wg sync.WaitGroup
	go func() {
		wg.Add(1)
		defer wg.Done()
		f()
	}()
	wg.Wait()
}
