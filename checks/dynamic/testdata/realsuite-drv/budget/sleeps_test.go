package budget

import (
	"sync"
	"syscall"
	"testing"
)

// TestSleepsForReal waits 2 s of real time in a system call the scheduler
// does not see, on every machine: more than its first share of the
// budget (at least 1 s), much less than the whole. Its unperturbed schedule must run to
// its end.
func TestSleepsForReal(t *testing.T) {
	var mu sync.Mutex
	done := false
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		mu.Lock()
		done = true
		mu.Unlock()
	}()
	ts := syscall.NsecToTimespec(2e9)
	for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
	}
	wg.Wait()
	if !done {
		t.Fatal("the goroutine did not run")
	}
}

// TestAlongNaps naps 400 times a quarter of a second of real time, with a
// scheduling point after each: 100 s, longer than the whole budget. It
// comes first and must not take the time TestSleepsForReal needs.
func TestAlongNaps(t *testing.T) {
	var mu sync.Mutex
	for i := 0; i < 400; i++ {
		ts := syscall.NsecToTimespec(250e6)
		for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
		}
		mu.Lock()
		mu.Unlock() //nolint:staticcheck // a scheduling point
	}
}
