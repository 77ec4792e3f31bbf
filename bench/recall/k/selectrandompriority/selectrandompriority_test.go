// Package selectrandompriority: the worker's select treats quit and a
// pending job alike, so a job queued before quit can be dropped.
package selectrandompriority

import (
	"testing"
)

func worker(ready chan<- struct{}, jobs <-chan int, quit <-chan struct{}, handled chan<- int) {
	n := 0
	ready <- struct{}{}
	for {
		select {
		case j := <-jobs:
			n += j
		case <-quit: // taken even when a job is pending
			handled <- n
			return
		}
	}
}

func TestDrain(t *testing.T) {
	ready := make(chan struct{})
	jobs := make(chan int, 1)
	quit := make(chan struct{})
	handled := make(chan int)
	go worker(ready, jobs, quit, handled)
	<-ready
	jobs <- 1
	close(quit)
	if n := <-handled; n != 1 {
		t.Fatalf("handled %d jobs, want 1", n)
	}
}
