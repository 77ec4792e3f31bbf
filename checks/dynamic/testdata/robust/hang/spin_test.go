package hang

import "testing"

// ready is a plain flag: waiting on it is a busy loop with no scheduling
// point in it.
var ready bool

// TestSpinOnFlag waits for a goroutine by spinning on a plain variable. Under
// the scheduler the spinning goroutine never yields, so the goroutine that
// would set the flag never runs: the watchdog must end the schedule and name
// the loop.
func TestSpinOnFlag(t *testing.T) {
	ready = false
	go func() {
		ready = true
	}()
	for !ready {
	}
}
