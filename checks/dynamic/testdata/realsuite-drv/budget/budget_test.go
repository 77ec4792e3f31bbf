// Package budget has one test much slower than the others: split evenly,
// the budget would give it a sliver; split by measured cost it gets
// schedules too.
package budget

import (
	"crypto/sha256"
	"sync"
	"testing"
)

// digest hashes n rounds: real work, measured in wall time.
func digest(n int) [32]byte {
	var h [32]byte
	for i := 0; i < n; i++ {
		h = sha256.Sum256(h[:])
	}
	return h
}

func TestSlowDigests(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	seen := map[[32]byte]bool{}
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := digest(400000 + i)
			mu.Lock()
			seen[h] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	if len(seen) != 2 {
		t.Fatal("digests collided")
	}
}

func TestFast1(t *testing.T) { fast(t) }
func TestFast2(t *testing.T) { fast(t) }
func TestFast3(t *testing.T) { fast(t) }
func TestFast4(t *testing.T) { fast(t) }
func TestFast5(t *testing.T) { fast(t) }
func TestFast6(t *testing.T) { fast(t) }

func fast(t *testing.T) {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			n++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Fatal("lost an increment")
	}
}
