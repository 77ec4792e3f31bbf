package bad

import "sync"

// relockOwnUnlock calls the Unlock method value itself, after the second
// Lock: nothing else can release the mutex.
func relockOwnUnlock() {
	var mu sync.Mutex
	unlock := mu.Unlock
	mu.Lock()
	mu.Lock() // want `mu locked while already locked`
	unlock()
}
