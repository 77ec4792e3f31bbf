// Package draws: tests whose goroutines depend on math/rand's draws; a
// failing schedule replays only if the replay draws the same values.
package draws

import (
	"math/rand"
	randv2 "math/rand/v2"
	"sync"
	"testing"
	"time"
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

// TestClockSeededFanOut draws from a generator of its own, seeded from
// the clock (a backoff's jitter is seeded so): every process, a replay's
// too, seeds it otherwise.
func TestClockSeededFanOut(t *testing.T) {
	r := rand.New(rand.NewSource(time.Now().UnixNano()))
	n := 2 + r.Intn(30)
	if got := addAll(n); got != n {
		t.Errorf("total = %d, want %d", got, n)
	}
}

// TestClockSeededFanOutV2 is the same with math/rand/v2's PCG.
func TestClockSeededFanOutV2(t *testing.T) {
	r := randv2.New(randv2.NewPCG(uint64(time.Now().UnixNano()), 7))
	n := 2 + r.IntN(30)
	if got := addAll(n); got != n {
		t.Errorf("total = %d, want %d", got, n)
	}
}

// TestFixedSeed: a generator seeded with a constant draws the standard
// generator's values (no finding).
func TestFixedSeed(t *testing.T) {
	if got := rand.New(rand.NewSource(1)).Int63(); got != 5577006791947779410 {
		t.Errorf("rand.NewSource(1) drew %d first", got)
	}
	if got, want := randv2.New(randv2.NewPCG(1, 2)).Uint64(), uint64(0xc4f5a58656eef510); got != want {
		t.Errorf("NewPCG(1, 2) drew %#x first, want %#x", got, want)
	}
}

// TestDrawnAlone fails on some draws with one goroutine: no order of
// goroutines decides it, only the value drawn.
func TestDrawnAlone(t *testing.T) {
	if rand.Intn(2) == 0 {
		t.Error("drew 0")
	}
}
