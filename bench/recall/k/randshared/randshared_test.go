// Package randshared: a *rand.Rand is not safe for concurrent use, but two
// goroutines draw from the same one.
package randshared

import (
	"math/rand"
	"sync"
	"testing"
)

type jitter struct{ r *rand.Rand }

func (j *jitter) next() int { return j.r.Intn(100) } // unsynchronized source

func TestJitter(t *testing.T) {
	j := &jitter{r: rand.New(rand.NewSource(1))}
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			if v := j.next(); v < 0 || v >= 100 {
				t.Errorf("jitter %d", v)
			}
		}()
	}
	wg.Wait()
}
