// Package okwgperround: each round of the batch runner has a WaitGroup of
// its own. Must not be reported.
package okwgperround

import (
	"sync"
	"testing"
)

type runner struct {
	results chan int
	rounds  chan int
}

func (r *runner) run(round int, jobs []int) {
	wg := new(sync.WaitGroup)
	for _, j := range jobs {
		wg.Add(1)
		go func() {
			r.results <- j * j
			wg.Done()
		}()
	}
	go func() {
		wg.Wait()
		r.rounds <- round
	}()
}

func TestRounds(t *testing.T) {
	r := &runner{results: make(chan int, 4), rounds: make(chan int, 2)}
	r.run(1, []int{1, 2})
	sum := <-r.results + <-r.results
	r.run(2, []int{3})
	sum += <-r.results
	<-r.rounds
	<-r.rounds
	if sum != 14 {
		t.Fatalf("sum = %d, want 14", sum)
	}
}
