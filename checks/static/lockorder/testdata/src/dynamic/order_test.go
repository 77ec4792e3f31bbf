package dynamic

import "testing"

// TestPairState holds b.mu to inspect state while the code under test
// takes a.mu: a lock order only a test takes is not reported.
func TestPairState(t *testing.T) { // want TestPairState:"acquires dynamic\\.pairA\\.mu, dynamic\\.pairB\\.mu"
	a, b := &pairA{}, &pairB{}
	b.mu.Lock()
	a.mu.Lock()
	a.mu.Unlock()
	b.mu.Unlock()
	syncPair(a, b)
}
