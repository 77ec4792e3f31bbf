// Package okworkerstop: a worker closes its stop channel when it ends,
// and it ends only when Stop's send reaches it; Stop then waits for the
// close. Must not be reported.
package okworkerstop

import "testing"

type worker struct {
	tasks chan func()
	stop  chan struct{}
}

func start() *worker {
	w := &worker{tasks: make(chan func()), stop: make(chan struct{})}
	go func() {
		defer close(w.stop)
		for {
			select {
			case <-w.stop:
				return
			case f := <-w.tasks:
				f()
			}
		}
	}()
	return w
}

// Stop ends the worker and waits for it.
func (w *worker) Stop() {
	w.stop <- struct{}{}
	<-w.stop
}

func TestShutdown(t *testing.T) {
	w := start()
	done := make(chan int)
	w.tasks <- func() { done <- 1 }
	<-done
	w.Stop()
}
