// Package spinners has a test that leaves workers spinning on a flag it
// never sets: plain go test leaves them behind too, so the leak is the
// test's own ("fails without interleave too") on whichever schedule it is
// seen, not a finding.
package spinners

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// stopped is never set: the workers outlive the test.
var stopped atomic.Bool

func spin(started *sync.WaitGroup) {
	started.Done()
	for !stopped.Load() {
		runtime.Gosched()
	}
}

func TestLeavesSpinners(t *testing.T) {
	var started sync.WaitGroup
	started.Add(2)
	for range 2 {
		go spin(&started)
	}
	started.Wait()
}
