// Select commit: a blocked select that an operation completes with takes
// that case and no other, as in the runtime.

package rt

import (
	"reflect"
	"unsafe"
)

// In the runtime a goroutine blocked in a select waits in the queue of
// every case's channel. The first operation that completes with it (a
// send handing a value to it, a receive taking its value, a close, a
// timer firing) wakes it on that case: it cannot take another one after.
// Under control a buffered operation completes at once, its partner still
// parked, and another case may be ready too by the time the partner runs
// (ristretto's processItems took `stop` although a buffered Set had handed
// it an item). So such an operation commits the select to its case
// (gstate.commit): only that case is ready for it, its other cases are no
// one's partner, and what the operation left in the buffer (a value, a
// free slot) is kept for it. An unbuffered hand-off commits already: the
// operation and the select's case run together (pairFor).
//
// A select is blocked when it is parked and not enabled: none of its cases
// could proceed, so the runtime would have queued it. For a timer, also
// when its cases are ready only through hand-offs with goroutines parked
// at the current virtual time (lateSelect): those may be on their way to
// their operation, not in the channel's queue yet, and the timer may fire
// first (a caller's timeout while the server it asked is still working).

// completes commits the select blocked at the head of p's queue in the
// other direction, if the operation about to be performed (a send, or a
// receive) on the buffered channel p completes with it: a send to an empty
// buffer hands its value to a waiting receiver, a receive from a full
// buffer takes the value of a waiting sender. Called before the operation,
// on the shadow state before it.
//
// late lists selects to take as blocked although enabled (lateSelect).
//
//go:norace
func (s *sched) completes(p unsafe.Pointer, rv reflect.Value, send bool, late []*gstate) {
	if p == nil || s.chanOf(p, rv).closed || closedForReal(p) {
		return
	}
	n, k := lenCap(p, rv)
	if k == 0 || send && n != 0 || !send && n != k {
		return
	}
	var first *gstate
	for _, h := range s.blocked {
		if caseFor(h, p, !send) < -1 || s.enabled(h) && !in(h, late) {
			continue
		}
		if first == nil || h.parkAt < first.parkAt || h.parkAt == first.parkAt && h.parkSeq < first.parkSeq {
			first = h
		}
	}
	if first != nil && first.req.op == opSelect {
		s.commit(first, caseFor(first, p, !send))
	}
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
		if h.req.op == opSelect && h.commit == 0 && s.closeCase(h, p) >= 0 && !s.enabled(h) {
			hs = append(hs, h)
		}
	}
	for _, h := range hs {
		s.commit(h, s.closeCase(h, p))
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
	ch := s.chanOf(c.ptr, c.rv)
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

// lateSelects lists the blocked goroutines at a lateSelect.
//
//go:norace
func (s *sched) lateSelects() []*gstate {
	var out []*gstate
	for _, g := range s.blocked {
		if s.lateSelect(g) {
			out = append(out, g)
		}
	}
	return out
}

func in(g *gstate, gs []*gstate) bool {
	for _, h := range gs {
		if h == g {
			return true
		}
	}
	return false
}
