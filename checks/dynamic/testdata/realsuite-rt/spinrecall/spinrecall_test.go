package spinrecall

import (
	"testing"
	"time"

	"dep"
)

// A worker waits for a job while the test goroutine waits outside
// control (a real sleep in a dependency); then a sender whose select also
// waits for a quit signal offers the job and the test spins, with select
// default, until the worker reports it (as gocron's tests poll for job
// runs while a timer callback hands the job to the executor).
func TestSpinAfterForeignWait(t *testing.T) {
	jobs := make(chan int)
	quit := make(chan struct{})
	defer close(quit)
	got := make(chan int, 1)
	go func() { got <- <-jobs }()
	dep.Wait(100 * time.Millisecond) // outside control, real time
	go func() {
		select {
		case jobs <- 1:
		case <-quit:
		}
	}()
	for {
		select {
		case v := <-got:
			if v != 1 {
				t.Fatalf("got %d", v)
			}
			return
		default:
		}
	}
}
