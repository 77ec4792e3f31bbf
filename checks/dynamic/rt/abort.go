// Ending a schedule: parked goroutines unwind with the abort signal.

package rt

import (
	"slices"
	"strconv"
	"unsafe"
)

// abort starts unwinding every goroutine.
//
//go:norace
func (s *sched) abort() {
	s.aborting = true
	rawStderr(MarkerUnwind + strconv.Itoa(s.index) + "\n")
	s.abortSends = pendingSends(s.gs)
	noteDaemonChans(s.gs)
	closeJoins(s) // no decision admits them now
}

// pendingSends lists the channels a goroutine waits to send on (parked,
// or blocked for real) when the schedule ends.
//
//go:norace
func pendingSends(gs []*gstate) []unsafe.Pointer {
	var chans []unsafe.Pointer
	for _, g := range gs {
		if g.exited || !(g.parked || g.blockedReal) {
			continue
		}
		switch r := &g.req; r.op {
		case opSend:
			if r.obj != nil {
				chans = append(chans, r.obj)
			}
		case opSelect:
			for _, c := range r.cases {
				if c.send && c.ptr != nil {
					chans = append(chans, c.ptr)
				}
			}
		}
	}
	return chans
}

// abortNext releases one parked goroutine with the abort signal.
//
//go:norace
func (s *sched) abortNext() {
	for ; s.abortFrom < len(s.gs); s.abortFrom++ {
		if g := s.gs[s.abortFrom]; g.parked && !g.exited {
			g = innermostSubtest(g)
			s.unpark(g)
			g.rep = reply{mode: mAbort}
			g.wake()
			s.running = append(s.running, g)
			return
		}
	}
	if s.recallBlocked() {
		return
	}
	if len(s.outside) > 0 {
		limit := s.stepLimit()
		if s.waitOutside(abandonWait) || s.abandon() || s.waitOutside(limit-abandonWait) {
			return
		}
		s.watchdogAfter(s.outside[0], limit)
	}
	s.watchdog(nil)
}

// innermostSubtest is the subtest g waits for in t.Run, or the one that
// waits for, and so on, when it is parked and not exited; else g. A
// subtest unwinds before the t.Run that waits for it, as in go test, where
// a test never ends before its sequential subtest: its testing.T must not
// be done while the subtest's is still reporting.
//
//go:norace
func innermostSubtest(g *gstate) *gstate {
	for g.req.op == opRunWait && g.req.child != nil {
		c := g.req.child
		if c.exited || !c.parked {
			break
		}
		g = c
	}
	return g
}

// abortArrival handles an operation reached while unwinding (deferred
// calls): harmless ones run, unlocks only of what the goroutine's side
// holds, blocking ones unwind again.
//
//go:norace
func (s *sched) abortArrival(g *gstate) {
	r := &g.req
	rep := reply{mode: mAbort}
	switch r.op {
	case opUnlock:
		if m := s.mutex(r.obj); m.owner >= 0 {
			m.owner = -1
			rep.mode = mRun
		} else {
			rep.mode = mSkip
		}
	case opWUnlock:
		if m := s.rw(r.obj); m.writer >= 0 {
			m.writer = -1
			rep.mode = mRun
		} else {
			rep.mode = mSkip
		}
	case opRUnlock:
		if m := s.rw(r.obj); m.readers > 0 {
			m.readers--
			rep.mode = mRun
		} else {
			rep.mode = mSkip
		}
	case opLockerUnlock:
		op, p := lockerKind(r.locker)
		rep.mode = mSkip
		switch op {
		case opNone:
			rep.mode = mRun
		case opLock:
			if m := s.mutex(p); m.owner >= 0 {
				m.owner = -1
				rep.mode = mRun
			}
		case opWLock:
			if m := s.rw(p); m.writer >= 0 {
				m.writer = -1
				rep.mode = mRun
			}
		case opRLock:
			if m := s.rw(p); m.readers > 0 {
				m.readers--
				rep.mode = mRun
			}
		}
	case opGo, opRun:
		rep.mode = mSkip
	case opClose:
		// A deferred close while a goroutine waits to send on the
		// channel would make that send panic and race with it (with
		// the send itself, blocked for real, or with its tries while
		// the scheduler probed it): the program closes only after the
		// send completed. Unwinding skips it.
		rep.mode = mRun
		if r.obj != nil && (waiterForReal(r.obj, false) || slices.Contains(s.abortSends, r.obj)) {
			rep.mode = mSkip
		}
	case opWGAdd, opSignal, opBroadcast, opYield, opAtomic, opAtomicLoad, opChanLen, opNow, opOnceDone, opGC,
		opTimerNew, opTimerStop, opTimerReset, opTickerStop, opTickerReset, opStart:
		rep.mode = mRun
		if r.op == opTimerNew || r.op == opTimerStop || r.op == opTimerReset || r.op == opTickerStop || r.op == opTickerReset {
			s.applyTimer(g, &rep)
		}
		if r.op == opWGAdd {
			*s.wg(r.obj) += r.delta
		}
		if r.op == opStart {
			rep.mode = mAbort
		}
	case opSend, opRecv:
		if c, _ := s.chans.get(r.obj); r.obj != nil && (c != nil && c.closed || r.rv.Cap() > 0 && s.enabled(g)) {
			rep.mode = mRun
		}
	}
	s.unpark(g)
	g.rep = rep
	g.wake()
	s.running = append(s.running, g)
}
