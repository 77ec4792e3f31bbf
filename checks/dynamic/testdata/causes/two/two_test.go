package two

import (
	"sync"
	"testing"
)

// TestTwoCauses exercises both races at once.
func TestTwoCauses(t *testing.T) {
	var c Counter
	var r Registry
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); c.Inc(); r.Add("x") }()
	go func() { defer wg.Done(); c.Inc(); _ = r.Len() }()
	wg.Wait()
}
