package rt

import (
	"testing"
	"testing/synctest"
	"time"
)

// SynctestTest is testing/synctest's Test. Under control f runs on the
// calling goroutine: the scheduler's virtual clock is the bubble's fake
// one, and the goroutines f starts are controlled, so an order among them
// that fails the test is chosen and replayed (synctest fixes the clock,
// not the order). synctest's own would run f on a goroutine of the
// bubble, outside the scheduler's control. When f returns, the bubble's
// goroutines still runnable run until done or blocked (bubbleEnd), as
// synctest's Test waits for them before the test goes on; goroutines
// still blocked when the test ends are reported as leaks, where synctest
// would panic. In the bubble the clock starts at midnight UTC, January 1,
// 2000, and reaches deadlines exactly, as synctest's does.
func SynctestTest(t *testing.T, f func(*testing.T)) {
	g := current()
	if g == nil {
		synctest.Test(t, f)
		return
	}
	outer := enterBubble(g)
	defer leaveBubble(g, outer)
	f(t)
	bubbleEnd(g)
	bubbleAcquire()
}

// enterBubble makes g the first goroutine of a new bubble, which the
// goroutines it starts join, and returns the bubble it was in.
//
//go:norace
func enterBubble(g *gstate) int {
	outer := g.bubble
	if s := active; s != nil {
		s.bubble++
		s.bubbles++
		g.bubble = s.bubbles
		s.bubbleShift = append(s.bubbleShift, bubbleEpoch.Sub(s.base.Add(s.now)))
	}
	return outer
}

// bubbleEpoch is where a bubble's clock starts, as synctest's does:
// midnight UTC, January 1, 2000.
var bubbleEpoch = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// bubbleTime is t, a time of the schedule's clock, on the clock of
// bubble b (0: t itself).
//
//go:norace
func (s *sched) bubbleTime(b int, t time.Time) time.Time {
	if b <= 0 || b > len(s.bubbleShift) {
		return t
	}
	return t.Add(s.bubbleShift[b-1])
}

//go:norace
func leaveBubble(g *gstate, outer int) {
	if s := active; s != nil {
		s.bubble--
	}
	g.bubble = outer
}

// bubbleEnd waits, after f returned, until every other goroutine of g's
// bubble is done or blocked (bubbleIdle). A runnable one that would
// otherwise run after the test completed (jrpc2's OnCancel hook, which
// logs on the test's T: "Log in goroutine after Test... has completed")
// ends inside it, as under synctest. A replay of a schedule recorded
// without that wait does not wait (Schedule.BubbleEnd).
//
//go:norace
func bubbleEnd(g *gstate) {
	s := active
	if s == nil || s.noBubbleEnd {
		return
	}
	s.bubbleEnded = true
	g.call(&request{op: opBubbleEnd})
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
