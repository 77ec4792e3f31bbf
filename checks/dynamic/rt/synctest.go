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
// bubble, outside the scheduler's control. When f returns, the bubble's
// goroutines still runnable run until done or blocked (bubbleEnd), as
// synctest's Test waits for them before the test goes on; goroutines
// still blocked when the test ends are reported as leaks, where synctest
// would panic. In the bubble the clock reaches deadlines exactly, as
// synctest's does.
func SynctestTest(t *testing.T, f func(*testing.T)) {
	g := current()
	if g == nil {
		synctest.Test(t, f)
		return
	}
	outer := enterBubble(g)
	defer leaveBubble(g, outer)
	owner := testGoroutine(t)
	before := 0
	if owner != nil {
		before = len(owner.cleanups)
	}
	f(t)
	bubbleEnd(g, owner, before)
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
	}
	return outer
}

//go:norace
func leaveBubble(g *gstate, outer int) {
	if s := active; s != nil {
		s.bubble--
	}
	g.bubble = outer
}

// bubbleEnd runs the cleanups f registered (owner's from the before-th
// on, last first), as synctest's Test runs them in the bubble, and then
// waits until every other goroutine of g's bubble is done or blocked
// (bubbleIdle), or has only spun for bubbleEndSteps decisions (one that
// polls f's t.Context(), which synctest cancels when f returns and which
// is the test's own here). A runnable one that would otherwise run after
// the test completed (jrpc2's OnCancel hook, which logs on the test's T:
// "Log in goroutine after Test... has completed") ends inside it, as under
// synctest. A replay of a schedule recorded without that wait does
// neither (Schedule.BubbleEnd): its cleanups run when the test ends.
//
//go:norace
func bubbleEnd(g, owner *gstate, before int) {
	s := active
	if s == nil || s.noBubbleEnd {
		return
	}
	s.bubbleEnded = true
	for owner != nil && len(owner.cleanups) > before {
		// One that panics or ends the goroutine (t.FailNow) leaves
		// the rest to the test's end, outside the bubble.
		takeCleanup(owner)()
	}
	g.call(&request{op: opBubbleEnd})
}

// bubbleEndSteps bounds the wait at a bubble's end (bubbleEnd): that many
// decisions since one of the bubble's goroutines last did more than spin
// (bubbleProgress).
const bubbleEndSteps = 1000

// bubbleProgress notes that g, which did more than spin, is of the bubble
// whose end is waited at: the wait's bound starts again.
//
//go:norace
func (s *sched) bubbleProgress(g *gstate) {
	if w := s.bubbleWaiter; w != nil && g != w && g.bubble == w.bubble {
		s.bubbleEndAt = s.steps
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
