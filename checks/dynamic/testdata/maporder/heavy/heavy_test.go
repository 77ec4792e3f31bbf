// Package heavy is a correct test heavy in map ranges, for the cost of
// ranging in the schedule's order (docs/regressions.md): four goroutines
// each add 25 times to a registry of 100 keys and sum it under its lock.
package heavy

import (
	"strconv"
	"sync"
	"testing"
)

type registry struct {
	mu sync.Mutex
	m  map[string]int
}

func (r *registry) add(k string) {
	r.mu.Lock()
	r.m[k]++
	r.mu.Unlock()
}

func (r *registry) sum() (s int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range r.m {
		s += v
	}
	return s
}

func TestRegistry(t *testing.T) {
	r := &registry{m: map[string]int{}}
	for i := 0; i < 100; i++ {
		r.m["k"+strconv.Itoa(i)] = 0
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				r.add("k" + strconv.Itoa(g*25+i))
				if r.sum() < 1 {
					t.Error("sum below one after an add")
				}
			}
		}()
	}
	wg.Wait()
	if s := r.sum(); s != 100 {
		t.Errorf("sum = %d, want 100", s)
	}
}
