// Enabledness: the parked goroutines in their sets, and which can go on now.

package rt

import (
	"cmp"
	"reflect"
	"runtime"
	"slices"
	"time"
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
	if room := len(s.ready) + len(s.blocked); cap(s.ready) < room || cap(s.readyList) < room {
		// Room behind the ready ones for every blocked one: else each
		// decision's appends copied both lists anew (thousands of
		// goroutines blocked, thousands enabled).
		s.ready = append(make([]*gstate, 0, 2*room), s.ready...)
		s.readyList = append(make([]Candidate, 0, 2*room), s.readyList...)
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
//
//go:norace
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
		opRunWait, opParallel, opParallelWait, opSleep, opSend, opRecv, opSelect, opSyncWait, opBubbleEnd:
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
	s.noteDaemonEnds(g)
	if g.req.op == opBubbleEnd && s.bubbleWaiter != g {
		s.bubbleWaiter, s.bubbleEndAt = g, s.steps
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
	if !g.inFresh {
		g.inFresh = true
		s.freshReady = append(s.freshReady, g)
	}
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
		s.settlePass(g)
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

// countWaits adds d to the counts of waiting goroutines (chanState.waits)
// for each channel and direction h's operation waits at (once each): +1 as
// h parks at it, -1 as h leaves. hasPartner and queuedBehind read them
// instead of scanning the blocked goroutines for each blocked goroutine.
//
//go:norace
//go:nocheckptr
func (s *sched) countWaits(h *gstate, d int32) {
	if d > 0 {
		h.waitAt = h.parkAt
	}
	switch h.req.op {
	case opSend, opRecv:
		h.waitCh = nil
		if h.req.obj != nil {
			c := s.chanOf(h.req.obj)
			c.waiting(h.req.op == opSend).add(h.waitAt, d)
			if d > 0 {
				h.waitCh = c
			}
		}
	case opSelect:
		cs := h.req.cases
		for i := range cs {
			if cs[i].ptr == nil || caseFor(h, cs[i].ptr, cs[i].send) < i {
				continue // nil, or counted at an earlier case
			}
			s.chanOf(cs[i].ptr).waiting(cs[i].send).add(h.waitAt, d)
		}
	}
}

// waitCount is what a chanState keeps for each direction: how many blocked
// goroutines wait there, and the earliest virtual time one of them parked
// at (first; atFirst of them parked then, -1 when not known since the
// last of those left: firstWaiter counts again on demand).
type waitCount struct {
	n       int32
	atFirst int32
	first   time.Duration
}

// add counts a goroutine that parked at virtual time at in (d > 0) or
// out (d < 0).
//
//go:norace
func (w *waitCount) add(at time.Duration, d int32) {
	switch {
	case d > 0 && w.n <= 0:
		w.first, w.atFirst = at, 1
	case d > 0 && w.atFirst >= 0 && at < w.first:
		w.first, w.atFirst = at, 1
	case d > 0 && w.atFirst >= 0 && at == w.first:
		w.atFirst++
	case d < 0 && w.atFirst > 0 && at == w.first:
		if w.atFirst--; w.atFirst == 0 {
			w.atFirst = -1 // the earliest left: count again when asked
		}
	}
	if w.n += d; w.n <= 0 {
		*w = waitCount{}
	}
}

// firstWaiter returns the earliest virtual time a blocked goroutine
// waiting at channel p (its state c) in the given direction parked at,
// counting again when the earliest left.
//
//go:norace
//go:nocheckptr
func (s *sched) firstWaiter(c *chanState, p unsafe.Pointer, send bool) (time.Duration, bool) {
	w := c.waiting(send)
	if w.n <= 0 {
		return 0, false
	}
	if w.atFirst < 0 {
		w.atFirst = 0
		for _, h := range s.blocked {
			if caseFor(h, p, send) < -1 {
				continue
			}
			switch {
			case w.atFirst == 0 || h.waitAt < w.first:
				w.first, w.atFirst = h.waitAt, 1
			case h.waitAt == w.first:
				w.atFirst++
			}
		}
	}
	return w.first, true
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
	case opBubbleEnd:
		return s.bubbleIdle(g)
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
	case opSend, opRecv:
		if c := g.waitCh; c != nil && g.set == setBlocked {
			return s.chanReadyIn(g, c, r.obj, r.rv, r.op == opSend)
		}
		return s.chanReady(g, r.obj, r.rv, r.op == opSend)
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
	return s.chanReadyIn(g, s.chanOf(p), p, rv, send)
}

// chanReadyIn is chanReady of channel p whose state is c.
//
//go:norace
func (s *sched) chanReadyIn(g *gstate, c *chanState, p unsafe.Pointer, rv reflect.Value, send bool) bool {
	if c.closed {
		return true
	}
	if closedForReal(p) {
		if s.noticing == p {
			return false // closeCommits asks about the moment before the close
		}
		c.closed = true // closed outside control
		return true
	}
	if s.queuedBehind(g, c, p, send) {
		return false
	}
	n, k := lenCap(p, rv)
	if k > 0 {
		if send {
			return n+s.reserved(g, p, true) < k
		}
		return n-s.reserved(g, p, false) > 0
	}
	if s.partnerIn(g, c, p, send) {
		return true
	}
	// A partner outside control (a goroutine the rewriter did not
	// start, one blocked for real) waits in the channel itself.
	return waiterForReal(p, send)
}

// queuedBehind: is another goroutine waiting on p (its state c) in the
// same direction since an earlier virtual time? It blocked there first, so
// it is first in the channel's queue: the runtime serves it first. (g
// itself, if it waits there, parked at g.parkAt, not before: the earliest
// time any waiter parked at says it, with no scan of the blocked
// goroutines, which made a decision cost the square of their number.)
//
//go:norace
func (s *sched) queuedBehind(g *gstate, c *chanState, p unsafe.Pointer, send bool) bool {
	first, ok := s.firstWaiter(c, p, send)
	return ok && first < g.parkAt
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
		}
	}
	// In the order they parked: a channel's waiters queue first in,
	// first out (those parked at the same virtual time in the order they
	// got there, parkSeq: the unperturbed schedule pairs the first, as
	// the runtime). Stable, as the insertion sort it replaces, which
	// cost the square of the partners (a thousand senders on a channel).
	slices.SortStableFunc(out, byPark)
	s.partBuf = out[:0]
	return out
}

// byPark orders parked goroutines by the virtual time they parked at,
// then by when they got there (parkSeq).
func byPark(a, b *gstate) int {
	if c := cmp.Compare(a.parkAt, b.parkAt); c != 0 {
		return c
	}
	return cmp.Compare(a.parkSeq, b.parkSeq)
}

// hasPartner: is partners(g, p, send) not empty? (It allocates nothing:
// enabled asks it for every parked goroutine at every decision.)
//
//go:norace
func (s *sched) hasPartner(g *gstate, p unsafe.Pointer, send bool) bool {
	c, _ := s.chans.get(p)
	return c != nil && s.partnerIn(g, c, p, send)
}

// partnerIn is hasPartner of channel p whose state is c.
//
//go:norace
//go:nocheckptr
func (s *sched) partnerIn(g *gstate, c *chanState, p unsafe.Pointer, send bool) bool {
	n := c.waiting(!send).n
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

// bubbleIdle: is every other goroutine of g's bubble done or blocked, as
// synctest's Test waits for at the bubble's end, or have they only spun
// for bubbleEndSteps decisions? One outside control (in I/O, which a
// cleanup of the test may end) is not waited for, nor one whose only
// wake-up is a timer: synctest's Test, its function done, moves no clock
// (a sleeper left then is a deadlock it panics on).
//
//go:norace
func (s *sched) bubbleIdle(g *gstate) bool {
	if s.steps-s.bubbleEndAt >= bubbleEndSteps {
		return true
	}
	for _, o := range s.gs {
		if o == g || o.exited || o.bubble != g.bubble || o.outside && !o.parked {
			continue
		}
		if !o.parked || o.set == setReady {
			return false
		}
		if o.set == setBlocked && s.enabled(o) {
			return false
		}
	}
	return true
}

// othersBlocked: is every controlled goroutine but g blocked or done, as
// synctest's Wait needs? One blocked outside control (a dependency's
// select whose synchronization is not rewritten: jrpc2's tests wait while
// mnet's Accept does) counts when it is on a channel operation or a
// select now, as synctest counts one durably blocked, and no goroutine
// outside control runs or waits for I/O (which may feed it); one in I/O,
// a system call or a lock of code not rewritten does not. They are looked
// at (stack dumps) only once every other is blocked.
//
//go:norace
func (s *sched) othersBlocked(g *gstate) bool {
	outside := false
	for _, o := range s.gs {
		if o == g || o.exited {
			continue
		}
		if o.outside && !o.parked {
			outside = true
			continue
		}
		if !o.parked || o.set == setReady {
			return false
		}
		if o.set == setBlocked && o.req.op != opSyncWait && o.req.op != opBubbleEnd && s.enabled(o) {
			return false
		}
	}
	if outside {
		dump := dumpBuf[:runtime.Stack(dumpBuf, true)] // one look at all of them
		if busy, io := s.foreignActiveIn(dump); busy || io {
			return false // one of those may be what they wait for
		}
		for _, o := range s.gs {
			if o == g || o.exited || !o.outside || o.parked {
				continue
			}
			if state, at := stateIn(dump, o.gid); at < 0 || !chanWaitState(state) {
				return false
			}
		}
	}
	return true
}
