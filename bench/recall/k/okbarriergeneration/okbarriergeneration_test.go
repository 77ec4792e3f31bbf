// Package okbarriergeneration: waiters wait for the generation to change.
// Must not be reported.
package okbarriergeneration

import (
	"sync"
	"testing"
)

type barrier struct {
	mu    sync.Mutex
	c     *sync.Cond
	n     int
	count int
	gen   int
}

func newBarrier(n int) *barrier {
	b := &barrier{n: n}
	b.c = sync.NewCond(&b.mu)
	return b
}

func (b *barrier) await() {
	b.mu.Lock()
	defer b.mu.Unlock()
	gen := b.gen
	b.count++
	if b.count == b.n {
		b.count = 0
		b.gen++
		b.c.Broadcast()
		return
	}
	for gen == b.gen {
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
