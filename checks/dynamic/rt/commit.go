// Select commit: a blocked select that an operation completes with takes
// that case and no other, as in the runtime.

package rt

import (
	"reflect"
	"time"
	"unsafe"
)

// In the runtime a goroutine blocked in a select waits in the queue of
// every case's channel. The first operation that completes with it (a
// send handing a value to it, a receive taking its value, a close, a
// timer firing) wakes it on that case: it cannot take another one after.
// Under control a buffered operation completes at once, its partner still
// parked, and another case may be ready too by the time the partner runs
// (a worker blocked long before took `stop` although a buffered send had
// handed it a job). So such an operation commits the select to its case
// (gstate.commit): only that case is ready for it, its other cases are no
// one's partner, and what the operation left in the buffer (a value, a
// free slot) is kept for it. An unbuffered hand-off commits already: the
// operation and the select's case run together (pairFor).
//
// A select is blocked when it is parked and not enabled (none of its cases
// could proceed) and it parked at an earlier virtual time, or the clock is
// about to move with nothing else able to run: then it has evaluated its
// cases for certain and queued. One that parked at the current virtual
// time may still be on its way (the same rule as lateOnly's): the
// goroutine that came to its select with the operation, or just before,
// evaluates its cases after it, all of those ready then (a worker that
// gets to its select as the test queues a job and closes quit may take
// quit; plain go test shows it).

// completes commits the select blocked at the head of p's queue in the
// other direction, if the operation about to be performed (a send, or a
// receive) on the buffered channel p completes with it: a send to an empty
// buffer hands its value to a waiting receiver, a receive from a full
// buffer takes the value of a waiting sender. Called before the operation,
// on the shadow state before it.
//
// idle says the clock is about to move with nothing able to run, before
// (the virtual time before it moves); partner is decidedPartner's.
//
//go:norace
func (s *sched) completes(p unsafe.Pointer, rv reflect.Value, send bool, idle bool, before time.Duration, partner int) {
	if p == nil || s.chanOf(p).closed || closedForReal(p) {
		return
	}
	n, k := lenCap(p, rv)
	if k == 0 || send && n != 0 || !send && n != k {
		return
	}
	var first *gstate
	for _, h := range s.blocked {
		if caseFor(h, p, !send) < -1 || s.enabled(h) || !queued(h, idle, before, partner) {
			continue // not waiting there, or maybe not queued yet
		}
		if first == nil || h.parkAt < first.parkAt || h.parkAt == first.parkAt && h.parkSeq < first.parkSeq {
			first = h
		}
	}
	if first != nil && first.req.op == opSelect {
		s.commit(first, caseFor(first, p, !send))
	}
}

// queued: is h, parked at a case of p, queued there for certain (idle, or
// it parked at an earlier virtual time than before, or is settled)? In a
// replay (partner not byTime) it is when its recording paired the
// operation with it: when a blocked goroutine parked is timing in a
// recording (the scheduler takes a slow one back later, from outside
// control, when the clock may have moved), and a replay pairs as it did.
func queued(h *gstate, idle bool, before time.Duration, partner int) bool {
	if partner != byTime {
		return h.id == partner
	}
	return idle || h.parkAt < before || h.settled
}

// byTime is decidedPartner outside a replay: queued judges by the clock.
const byTime = -2

// decidedPartner is, in a replay following its schedule, the partner of
// the decision being made in its recording (Decision.Partner; -1: none),
// and byTime otherwise.
//
//go:norace
func (s *sched) decidedPartner() int {
	if s.replay == nil || s.diverged != "" || s.steps >= len(s.replay.Decisions) {
		return byTime
	}
	if p := s.replay.Decisions[s.steps].Partner; p != nil {
		return *p
	}
	return -1
}

// closeCommits commits every select blocked at a case on p, about to be
// closed: the close wakes them all on that case.
//
//go:norace
func (s *sched) closeCommits(p unsafe.Pointer) {
	if p == nil {
		return
	}
	var hs []*gstate
	for _, h := range s.blocked {
		if h.req.op == opSelect && h.commit == 0 && (h.parkAt < s.now || h.settled) && s.closeCase(h, p) >= 0 && !s.enabled(h) {
			hs = append(hs, h)
		}
	}
	for _, h := range hs {
		s.commit(h, s.closeCase(h, p))
	}
}

// noticeRealCloses commits, as closeCommits does for a close under
// control, every select blocked at a channel closed outside control (a
// context's Done, closed by a cancel the rewrite does not see) on that
// case, at the first decision that can see it closed: the close woke them
// on it, before any of their other cases could pair. Before, the first to
// ask about the channel marked it closed and left the select blocked on
// every case: puddle v1.3.0's Acquire, blocked on ctx.Done and on the
// constructor's channel, was paired with the constructor's send after the
// cancel had closed Done, a schedule the runtime cannot run (its canceled
// acquire count stayed 0).
//
//go:norace
func (s *sched) noticeRealCloses() {
	for _, h := range s.blocked {
		if h.req.op != opSelect || h.commit != 0 {
			continue
		}
		for _, c := range h.req.cases {
			if c.ptr == nil || c.send {
				continue
			}
			ch := s.chanOf(c.ptr)
			if ch.closed || !closedForReal(c.ptr) {
				continue
			}
			s.noticing = c.ptr
			s.closeCommits(c.ptr)
			s.noticing = nil
			ch.closed = true
		}
	}
}

// closeCase is the first case of h's select on p, either direction (-1:
// none).
//
//go:norace
func (s *sched) closeCase(h *gstate, p unsafe.Pointer) int {
	for i, c := range h.req.cases {
		if c.ptr == p {
			return i
		}
	}
	return -1
}

// commit commits h, blocked in a select, to case i.
//
//go:norace
func (s *sched) commit(h *gstate, i int) {
	if i < 0 || h.set != setBlocked {
		return
	}
	s.countWaits(h, -1)
	h.commit = i + 1
	s.commits++
	s.countWaits(h, 1)
}

// uncommit clears h's commit as it leaves the blocked set.
//
//go:norace
func (s *sched) uncommit(h *gstate) {
	if h.commit != 0 {
		h.commit = 0
		s.commits--
	}
}

// committedReady: can the select of g, committed, take its case now? A
// buffered case waits for the operation that committed it to be done for
// real.
//
//go:norace
func (s *sched) committedReady(g *gstate) bool {
	c := g.req.cases[g.commit-1]
	ch := s.chanOf(c.ptr)
	if ch.closed || closedForReal(c.ptr) {
		return true
	}
	n, k := lenCap(c.ptr, c.rv)
	if k == 0 {
		return s.chanReady(g, c.ptr, c.rv, c.send)
	}
	if c.send {
		return n+s.reserved(g, c.ptr, true) < k
	}
	return n-s.reserved(g, c.ptr, false) > 0
}

// reserved counts the selects other than g committed to a case on p in
// the given direction: the values in p's buffer that are theirs (receive),
// or the slots that are (send).
//
//go:norace
func (s *sched) reserved(g *gstate, p unsafe.Pointer, send bool) int {
	if s.commits == 0 {
		return 0
	}
	n := 0
	for _, h := range s.blocked {
		if h != g && h.commit != 0 {
			if c := h.req.cases[h.commit-1]; c.ptr == p && c.send == send {
				n++
			}
		}
	}
	return n
}

// lateSelect: is g at a select without default, uncommitted, whose ready
// cases are all hand-offs with goroutines parked at the current virtual
// time (lateOnly)?
//
//go:norace
func (s *sched) lateSelect(g *gstate) bool {
	r := &g.req
	if r.op != opSelect || r.hasDefault || g.commit != 0 {
		return false
	}
	var ready []int
	for i, c := range r.cases {
		if s.chanReady(g, c.ptr, c.rv, c.send) {
			ready = append(ready, i)
		}
	}
	return len(ready) > 0 && s.lateOnly(g, r.cases, ready)
}

// anyEnabled: can a parked goroutine go on now?
//
//go:norace
func (s *sched) anyEnabled() bool {
	if len(s.ready) > 0 {
		return true
	}
	for _, g := range s.blocked {
		if s.enabled(g) {
			return true
		}
	}
	return false
}
