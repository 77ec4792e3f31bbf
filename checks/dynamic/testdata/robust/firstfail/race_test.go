// Package firstfail has failures a search that stops each test at its
// first failure (explore's TestTestUntil) must stop at: a data race only
// some schedules reach (the unperturbed one, which runs the test's
// goroutine first, does not), and a failure in one worker's processes.
package firstfail

import (
	"sync"
	"testing"
)

// TestReadAfterSignal reads a field the worker writes after its signal,
// but only when the signal came before the test looked for it.
func TestReadAfterSignal(t *testing.T) {
	var wg sync.WaitGroup
	done := make(chan struct{})
	late := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		close(done)
		late = 1 // after the signal: nothing orders it before the read below
	}()
	select {
	case <-done:
		_ = late // data race
	default:
	}
	wg.Wait()
}
