package cleanup

import (
	"sync"
	"testing"
)

// worker serves requests until stop is closed, then says so on done.
type worker struct {
	mu    sync.Mutex
	count int
	reqs  chan int
	stop  chan struct{}
	done  chan struct{}
}

func start() *worker {
	w := &worker{reqs: make(chan int), stop: make(chan struct{}), done: make(chan struct{})}
	go w.loop()
	return w
}

func (w *worker) loop() {
	defer close(w.done)
	for {
		select {
		case n := <-w.reqs:
			w.mu.Lock()
			w.count += n
			w.mu.Unlock()
		case <-w.stop:
			return
		}
	}
}

// TestCleanupStopsWorker leaves its worker running when it returns: the
// t.Cleanup it registered stops it and reads the shared count. That is not
// a leak, and the count is right in every schedule.
func TestCleanupStopsWorker(t *testing.T) {
	w := start()
	t.Cleanup(func() {
		close(w.stop)
		<-w.done
		w.mu.Lock()
		defer w.mu.Unlock()
		if w.count != 3 {
			t.Errorf("count = %d at cleanup, want 3", w.count)
		}
	})
	w.reqs <- 1
	w.reqs <- 2
}

// TestCleanupInSubtest does the same inside a subtest, whose cleanups run
// when the subtest ends.
func TestCleanupInSubtest(t *testing.T) {
	var stopped bool
	var mu sync.Mutex
	t.Run("sub", func(t *testing.T) {
		w := start()
		t.Cleanup(func() {
			close(w.stop)
			<-w.done
			mu.Lock()
			stopped = true
			mu.Unlock()
		})
		w.reqs <- 3
	})
	mu.Lock()
	defer mu.Unlock()
	if !stopped {
		t.Error("the subtest's cleanup did not run before t.Run returned")
	}
}

// TestCleanupClosesEarly has a bug only its cleanup shows: the cleanup
// closes the results channel without waiting for the goroutine that sends
// on it, so in some schedules the send comes after the close and panics.
// The search can only see it if cleanups run inside the schedule.
func TestCleanupClosesEarly(t *testing.T) {
	results := make(chan int, 1)
	t.Cleanup(func() {
		close(results)
	})
	go func() {
		results <- 42
	}()
}
