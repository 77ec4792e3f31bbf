// Package wgreusewait: one WaitGroup serves every round of a batch runner,
// and each round's waiter runs in its own goroutine. The next round's Add
// can come after the last Done released the previous waiter but before
// its Wait returned: "WaitGroup is reused before previous Wait has
// returned".
package wgreusewait

import (
	"sync"
	"testing"
)

type runner struct {
	wg      sync.WaitGroup // shared by the rounds
	results chan int
	rounds  chan int
}

func (r *runner) run(round int, jobs []int) {
	for _, j := range jobs {
		r.wg.Add(1)
		go func() {
			r.results <- j * j
			r.wg.Done()
		}()
	}
	go func() {
		r.wg.Wait()
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
