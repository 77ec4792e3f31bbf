// Package workerstopclosed: a worker closes its stop channel when it
// ends, and it also ends on its own once its task queue is closed. Stop
// sends on the stop channel: after the queue's close the worker may have
// ended first, and the send meets a closed channel (or is blocked when
// the close comes): a send on a closed channel.
package workerstopclosed

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
			case f, ok := <-w.tasks:
				if !ok {
					return
				}
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
	close(w.tasks) // no more tasks: the worker may end on its own
	w.Stop()
}
