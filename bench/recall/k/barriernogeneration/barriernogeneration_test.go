// Package barriernogeneration: a reusable barrier whose waiters wait
// until the count is back to zero. A party that passes and arrives at the
// next round before a woken waiter ran raises the count again: the waiter
// sleeps through its release, and both wait for ever.
package barriernogeneration

import (
	"sync"
	"testing"
)

type barrier struct {
	mu    sync.Mutex
	c     *sync.Cond
	n     int
	count int
}

func newBarrier(n int) *barrier {
	b := &barrier{n: n}
	b.c = sync.NewCond(&b.mu)
	return b
}

func (b *barrier) await() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.count++
	if b.count == b.n {
		b.count = 0
		b.c.Broadcast()
		return
	}
	for b.count != 0 { // should wait for a generation to change
		b.c.Wait()
	}
}

func TestRounds(t *testing.T) {
	b := newBarrier(2)
	var wg sync.WaitGroup
	sums := make([]int, 2)
	for p := 0; p < 2; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for round := 1; round <= 2; round++ {
				sums[p] += round
				b.await()
			}
		}()
	}
	wg.Wait()
	if sums[0] != 3 || sums[1] != 3 {
		t.Fatalf("sums %v", sums)
	}
}
