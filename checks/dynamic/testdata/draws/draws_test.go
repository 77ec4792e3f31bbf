// Package draws: tests whose goroutines depend on math/rand's draws; a
// failing schedule replays only if the replay draws the same values.
package draws

import (
	"math/rand"
	randv2 "math/rand/v2"
	"sync"
	"testing"
)

// addAll starts n goroutines that each add one to a total in two
// critical sections (a lost update) and returns the total.
func addAll(n int) int {
	var mu sync.Mutex
	var wg sync.WaitGroup
	total := 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			v := total
			mu.Unlock()
			mu.Lock()
			total = v + 1
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}

// TestRandomFanOut starts as many goroutines as math/rand says.
func TestRandomFanOut(t *testing.T) {
	n := 2 + rand.Intn(30)
	if got := addAll(n); got != n {
		t.Errorf("total = %d, want %d", got, n)
	}
}

// TestRandomFanOutV2 is the same with math/rand/v2.
func TestRandomFanOutV2(t *testing.T) {
	n := 2 + randv2.N(30)
	if got := addAll(n); got != n {
		t.Errorf("total = %d, want %d", got, n)
	}
}
