// Enabledness: the parked goroutines in their sets, and which can go on now.

package rt

import (
	"reflect"
	"unsafe"
)

// enabledList returns the enabled goroutines and their candidates: the
// ready ones, then the blocked ones enabled now. Both lists share their
// first part with s.ready and s.readyList (no copy): they are good until
// the next park or unpark.
//
//go:norace
func (s *sched) enabledList() ([]*gstate, []Candidate) {
	if len(s.sleeping) > 0 && s.minWake <= s.now {
		s.wakeSleepers()
	}
	out, list := s.ready, s.readyList
	for _, g := range s.blocked {
		if s.enabled(g) {
			out = append(out, g)
			list = append(list, s.candidate(g)) // strategy.go
		}
	}
	return out, list
}

// candidateList returns the strategy's candidates for cands, kept in
// s.listBuf (valid until the next call).
func (s *sched) candidateList(cands []*gstate) []Candidate {
	list := s.listBuf[:0]
	for _, g := range cands {
		list = append(list, s.candidate(g)) // strategy.go
	}
	s.listBuf = list[:0]
	return list
}

// conditional: may an operation of this kind block (enabled judges it)?
func conditional(op opKind) bool {
	switch op {
	case opLock, opWLock, opRLock, opLockerLock, opWGWait, opOnce, opCondPark,
		opRunWait, opParallel, opParallelWait, opSleep, opSend, opRecv, opSelect, opSyncWait:
		return true
	}
	return false
}

// Sets of parked goroutines (gstate.set).
const (
	setNone uint8 = iota
	setReady
	setSleeping
	setBlocked
)

// park marks g parked and puts it in its set.
//
//go:norace
func (s *sched) park(g *gstate) {
	s.unlist(g)
	g.parked = true
	if g.id < s.abortFrom {
		s.abortFrom = g.id // abortNext releases them in order
	}
	switch {
	case g.req.op == opSleep && g.wakeAt > s.now:
		if len(s.sleeping) == 0 || g.wakeAt < s.minWake {
			s.minWake = g.wakeAt
		}
		g.set, g.setIdx = setSleeping, int32(len(s.sleeping))
		s.sleeping = append(s.sleeping, g)
	case g.req.op == opSleep || !conditional(g.req.op):
		s.addReady(g)
	default:
		g.set, g.setIdx = setBlocked, int32(len(s.blocked))
		s.blocked = append(s.blocked, g)
		s.countWaits(g, 1)
	}
}

//go:norace
func (s *sched) addReady(g *gstate) {
	g.set, g.setIdx = setReady, int32(len(s.ready))
	s.ready = append(s.ready, g)
	s.readyList = append(s.readyList, s.candidate(g))
}

// unpark marks g no longer parked and takes it out of its set.
//
//go:norace
func (s *sched) unpark(g *gstate) {
	g.parked = false
	s.unlist(g)
}

// unlist takes g out of its set (the last of the set takes its place).
//
//go:norace
func (s *sched) unlist(g *gstate) {
	i := int(g.setIdx)
	switch g.set {
	case setReady:
		n := len(s.ready) - 1
		s.ready[i], s.readyList[i] = s.ready[n], s.readyList[n]
		s.ready[i].setIdx = int32(i)
		s.ready[n], s.readyList[n] = nil, Candidate{}
		s.ready, s.readyList = s.ready[:n], s.readyList[:n]
	case setSleeping:
		s.sleeping = cut(s.sleeping, i)
	case setBlocked:
		s.countWaits(g, -1)
		s.blocked = cut(s.blocked, i)
		s.uncommit(g)
	}
	g.set = setNone
}

// cut removes a[i], moving the last element there.
//
//go:norace
func cut(a []*gstate, i int) []*gstate {
	n := len(a) - 1
	a[i] = a[n]
	a[i].setIdx = int32(i)
	a[n] = nil
	return a[:n]
}

// wakeSleepers moves the sleepers whose time has come to the ready set.
//
//go:norace
func (s *sched) wakeSleepers() {
	for i := 0; i < len(s.sleeping); {
		g := s.sleeping[i]
		if g.wakeAt <= s.now {
			s.unlist(g) // the last one moves to i
			s.addReady(g)
			continue
		}
		if i == 0 || g.wakeAt < s.minWake {
			s.minWake = g.wakeAt
		}
		i++
	}
}

// chanDir is a channel and a direction (send or receive).
type chanDir struct {
	p    unsafe.Pointer
	send bool
}

// countWaits adds d to waiters for each channel and direction h's
// operation waits at (once each): +1 as h parks at it, -1 as h leaves.
//
//go:norace
//go:nocheckptr
func (s *sched) countWaits(h *gstate, d int32) {
	switch h.req.op {
	case opSend, opRecv:
		if h.req.obj != nil {
			s.addWaits(chanDir{h.req.obj, h.req.op == opSend}, d)
		}
	case opSelect:
		cs := h.req.cases
		for i := range cs {
			if cs[i].ptr == nil || caseFor(h, cs[i].ptr, cs[i].send) < i {
				continue // nil, or counted at an earlier case
			}
			s.addWaits(chanDir{cs[i].ptr, cs[i].send}, d)
		}
	}
}

//go:norace
func (s *sched) addWaits(k chanDir, d int32) {
	// A count that drops to zero stays, zero: a delete could leave a
	// tombstone that later makes the map grow (clearMap); the map is
	// made before the schedule and emptied after it (takeShadow).
	if s.waiters == nil {
		s.waiters = make(map[chanDir]int32, shadowRoom)
	}
	n, ok := s.waiters[k]
	if !ok && d <= 0 {
		return
	}
	if n += d; n < 0 {
		n = 0
	}
	s.waiters[k] = n
}

// enabled reports whether g's pending operation can complete now.
//
//go:norace
func (s *sched) enabled(g *gstate) bool {
	r := &g.req
	switch r.op {
	case opLock:
		return s.mutex(r.obj).owner < 0
	case opWLock:
		m := s.rw(r.obj)
		if m.pending == g.id {
			return m.readers == 0
		}
		return m.writer < 0 && m.pending < 0
	case opRLock:
		m := s.rw(r.obj)
		return m.writer < 0 && m.pending < 0
	case opLockerLock:
		op, p := lockerKind(r.locker)
		switch op {
		case opLock:
			return s.mutex(p).owner < 0
		case opWLock:
			m := s.rw(p)
			if m.pending == g.id {
				return m.readers == 0
			}
			return m.writer < 0 && m.pending < 0
		case opRLock:
			m := s.rw(p)
			return m.writer < 0 && m.pending < 0
		}
		return true
	case opWGWait:
		// Not below zero for real: Wait would block there for good,
		// outside the scheduler's view, while the Done that panicked
		// unwinds (its deferred Done a scheduling point).
		return (g.wgReleased || *s.wg(r.obj) <= 0) && !wgNegative(r.obj)
	case opOnce:
		o := s.once(r.obj)
		return o.state != 1
	case opSyncWait:
		return s.othersBlocked(g)
	case opCondPark:
		return g.signal
	case opRunWait:
		c := r.child
		return c == nil || c.exited || c.parallel
	case opParallel:
		p := g.parent
		return p == nil || p.fnDone || p.exited
	case opParallelWait:
		return g.pending <= 0
	case opSleep:
		return g.wakeAt <= s.now
	case opSend:
		return s.chanReady(g, r.obj, r.rv, true)
	case opRecv:
		return s.chanReady(g, r.obj, r.rv, false)
	case opSelect:
		if r.hasDefault {
			return true
		}
		if g.commit != 0 {
			return s.committedReady(g)
		}
		for _, c := range r.cases {
			if s.chanReady(g, c.ptr, c.rv, c.send) {
				return true
			}
		}
		return false
	}
	return true
}

// chanReady: can g's send (or receive) on the channel proceed now?
//
//go:norace
func (s *sched) chanReady(g *gstate, p unsafe.Pointer, rv reflect.Value, send bool) bool {
	if p == nil {
		return false
	}
	c := s.chanOf(p, rv)
	if c.closed {
		return true
	}
	if closedForReal(p) {
		c.closed = true // closed outside control
		return true
	}
	if s.queuedBehind(g, p, send) {
		return false
	}
	n, k := lenCap(p, rv)
	if k > 0 {
		if send {
			return n+s.reserved(g, p, true) < k
		}
		return n-s.reserved(g, p, false) > 0
	}
	if s.hasPartner(g, p, send) {
		return true
	}
	// A partner outside control (a goroutine the rewriter did not
	// start, one blocked for real) waits in the channel itself.
	return waiterForReal(p, send)
}

// queuedBehind: is another goroutine waiting on p in the same direction
// since an earlier virtual time? It blocked there first, so it is first
// in the channel's queue: the runtime serves it first.
//
//go:norace
func (s *sched) queuedBehind(g *gstate, p unsafe.Pointer, send bool) bool {
	n := s.waiters[chanDir{p, send}]
	if g.set == setBlocked && caseFor(g, p, send) >= -1 {
		n-- // g itself
	}
	if n <= 0 {
		return false
	}
	for _, h := range s.blocked {
		if h != g && h.parkAt < g.parkAt && caseFor(h, p, send) >= -1 {
			return true
		}
	}
	return false
}

// partners lists the parked goroutines that can complete the other half of
// an unbuffered operation on channel p.
//
//go:norace
func (s *sched) partners(g *gstate, p unsafe.Pointer, send bool) []*gstate {
	out := s.partBuf[:0]
	for _, h := range s.blocked {
		if h == g {
			continue
		}
		if caseFor(h, p, !send) >= -1 {
			out = append(out, h)
			// In the order they parked: a channel's waiters queue
			// first in, first out (those parked at the same virtual
			// time in the order they got there, parkSeq: the
			// unperturbed schedule pairs the first, as the runtime).
			for i := len(out) - 1; i > 0 && (out[i].parkAt < out[i-1].parkAt || out[i].parkAt == out[i-1].parkAt && out[i].parkSeq < out[i-1].parkSeq); i-- {
				out[i], out[i-1] = out[i-1], out[i]
			}
		}
	}
	s.partBuf = out[:0]
	return out
}

// hasPartner: is partners(g, p, send) not empty? (It allocates nothing:
// enabled asks it for every parked goroutine at every decision.)
//
//go:norace
//go:nocheckptr
func (s *sched) hasPartner(g *gstate, p unsafe.Pointer, send bool) bool {
	n := s.waiters[chanDir{p, !send}]
	if g.set == setBlocked && caseFor(g, p, !send) >= -1 {
		n-- // g itself
	}
	return n > 0
}

// caseFor returns -1 when h is parked at a plain operation on p in the given
// direction, the case index when at a select with such a case, else -2.
// (No pointer check: it only compares pointers, and the check, on for
// -race, made it the scheduler's costliest function.)
//
//go:norace
//go:nocheckptr
func caseFor(h *gstate, p unsafe.Pointer, send bool) int {
	switch h.req.op {
	case opSend:
		if send && h.req.obj == p {
			return -1
		}
	case opRecv:
		if !send && h.req.obj == p {
			return -1
		}
	case opSelect:
		cs := h.req.cases
		if h.commit != 0 {
			// Committed: no longer waiting at its other cases.
			if i := h.commit - 1; cs[i].ptr == p && cs[i].send == send {
				return i
			}
			return -2
		}
		for i := range cs {
			if cs[i].ptr == p && cs[i].send == send {
				return i
			}
		}
	}
	return -2
}

// othersBlocked: is every other controlled goroutine blocked (parked at an
// operation that cannot go on now, or asleep) or done? synctest.Wait's
// condition, with the controlled goroutines as the bubble.
//
//go:norace
func (s *sched) othersBlocked(g *gstate) bool {
	for _, o := range s.gs {
		if o == g || o.exited {
			continue
		}
		if !o.parked || o.set == setReady {
			return false
		}
		if o.set == setBlocked && o.req.op != opSyncWait && s.enabled(o) {
			return false
		}
	}
	return true
}
