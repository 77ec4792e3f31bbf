package outside

import (
	"sync"
	"testing"
	"time"

	"dep"
)

func worker(stop <-chan struct{}, wg *sync.WaitGroup) {
	defer wg.Done()
	<-stop
}

// The test stops its workers and then waits, in a dependency's retry loop
// (as goleak.VerifyNone does), until they are gone. The workers must get
// to run while the test sleeps outside the scheduler's control.
func TestRetryLoopOutside(t *testing.T) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go worker(stop, &wg)
	}
	close(stop)
	if !dep.WaitGone("outside.worker(") {
		t.Fatal("workers still running")
	}
}

// Goroutines share a semaphore from a dependency: one blocks in Acquire,
// outside the scheduler's control, while the holder needs a turn to
// release it.
func TestForeignSemaphore(t *testing.T) {
	sem := dep.NewSem(1)
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem.Acquire()
			mu.Lock()
			n++
			mu.Unlock()
			time.Sleep(time.Millisecond)
			sem.Release()
		}()
	}
	wg.Wait()
	if n != 3 {
		t.Fatalf("n = %d", n)
	}
}

// A goroutine sleeps on the real clock inside a dependency while the
// others go on.
func TestForeignSleep(t *testing.T) {
	done := make(chan struct{})
	go func() {
		dep.Pause(20 * time.Millisecond)
		close(done)
	}()
	ch := make(chan int)
	go func() { ch <- 1 }()
	<-ch
	<-done
}
