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

type authClient struct{ cb func() }

func dial(cb func()) *authClient { return &authClient{cb: cb} }

// checkCallbacks hands a callback with its own critical section on mu:
// no signal, so the failing check keeps mu locked for the callback.
func checkCallbacks(want int) (*authClient, error) {
	var mu sync.Mutex
	n := 0
	c := dial(func() {
		mu.Lock()
		defer mu.Unlock()
		n++
	})
	mu.Lock()
	if n != want {
		return nil, errNotFound // want `mu locked at line 29 is still held at this return`
	}
	mu.Unlock()
	return c, nil
}
