// Package assert stands in for testify's assert package (same module path,
// replaced in go.mod) with its polling assertion: Eventually runs the
// condition on a goroutine of its own and waits in a select on a timer, a
// ticker and the condition's result, as testify's does.
package assert

import (
	"testing"
	"time"
)

// Eventually asserts that condition returns true within waitFor, checking
// it every tick.
func Eventually(t testing.TB, condition func() bool, waitFor, tick time.Duration) bool {
	t.Helper()
	ch := make(chan bool, 1)
	timer := time.NewTimer(waitFor)
	defer timer.Stop()
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	var tickC <-chan time.Time
	go func() { ch <- condition() }()
	for {
		select {
		case <-timer.C:
			t.Errorf("condition never satisfied")
			return false
		case <-tickC:
			tickC = nil
			go func() { ch <- condition() }()
		case v := <-ch:
			if v {
				return true
			}
			tickC = ticker.C
		}
	}
}
