// Package longrun is two tests past the default step bound (20,000
// scheduling steps). TestLongThenLost counts to 11,000 under a lock
// (about 22,000 steps) and only then has its bug, a lost update between
// two goroutines: a search bound to 20,000 steps never reaches it.
// TestPingPong never ends: two goroutines pass a value back and forth for
// ever while the test waits for them, which only the step bound stops.
package longrun

import (
	"sync"
	"testing"
)

func TestLongThenLost(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5500 {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	total := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			v := total
			mu.Unlock()
			mu.Lock()
			total = v + n
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total != 2*n {
		t.Fatalf("total = %d, want %d", total, 2*n)
	}
}

func TestPingPong(t *testing.T) {
	ping, pong := make(chan int), make(chan int)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for v := range ping {
			pong <- v + 1
		}
	}()
	go func() {
		defer wg.Done()
		ping <- 0
		for v := range pong {
			ping <- v + 1
		}
	}()
	wg.Wait()
}
