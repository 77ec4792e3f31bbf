// Package clean has nothing to report.
package clean

import "sync"

// Spawn runs f in a goroutine and waits for it.
func Spawn(f func()) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f()
	}()
	wg.Wait()
}
