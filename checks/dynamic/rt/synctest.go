package rt

import (
	"testing"
	"testing/synctest"
)

// SynctestTest is testing/synctest's Test. Under control f runs on the
// calling goroutine: the scheduler's virtual clock is the bubble's fake
// one, and the goroutines f starts are controlled, so an order among them
// that fails the test is chosen and replayed (synctest fixes the clock,
// not the order). synctest's own would run f on a goroutine of the
// bubble, outside the scheduler's control. Goroutines still blocked when
// the test ends are reported as leaks, where synctest would panic. In
// the bubble the clock reaches deadlines exactly, as synctest's does.
func SynctestTest(t *testing.T, f func(*testing.T)) {
	if current() == nil {
		synctest.Test(t, f)
		return
	}
	inBubble(1)
	defer inBubble(-1)
	f(t)
	bubbleAcquire()
}

// inBubble counts the bubbles the schedule's test is inside.
//
//go:norace
func inBubble(d int) {
	if s := active; s != nil {
		s.bubble += d
	}
}

// SynctestWait is testing/synctest's Wait: under control it waits until
// every other controlled goroutine is blocked or done (one blocked outside
// control counts when it is on a channel: othersBlocked), and what they did
// before happens before it returns, for the race detector (bubbleRace).
func SynctestWait() {
	g := current()
	if g == nil {
		synctest.Wait()
		return
	}
	g.call(&request{op: opSyncWait})
	bubbleAcquire()
}
