// The virtual clock on S's side: timers, deadlines, moving the clock.

package rt

import (
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"time"
)

const (
	tkAfter uint8 = iota
	tkTimer
	tkTicker
	tkFunc
)

type vtimer struct {
	kind     uint8
	seq      int
	deadline time.Duration
	period   time.Duration
	active   bool
	ch       chan time.Time
	fn       func()
	hb       *uint32 // see armed
	carried  bool    // left pending by the last schedule (carryTimers)
	cb       *gstate // an AfterFunc's latest callback (overlapping)
	ctx      bool    // an AfterFunc firing a context deadline (withDeadline)
	// idleIn is 1 + the spin epoch (sched.spinEpoch) in which it fired
	// while goroutines spun, or was re-armed by a callback of such a
	// firing that did nothing else (idleTimers); 0: not so.
	idleIn int
	// armedAt is the virtual time its deadline was last set (made, Reset,
	// a ticker's tick): see testTimedOut.
	armedAt time.Duration
	// armStep is the decision that made or last reset it, from 1 (0:
	// not of this schedule), armD its duration then: for EarlyMove.
	armStep int
	armD    time.Duration
	// stale: a value sent before the last Reset sits in ch (before Go
	// 1.23's timers, asyncTimerChan); see staleRecv.
	stale bool
	// bubble is the synctest bubble of the goroutine that made it (0:
	// none), which its AfterFunc callbacks belong to.
	bubble int
}

// overlapping: is vt an AfterFunc whose latest callback has not returned?
// Firing it starts a second callback beside the first: time.Timer.Reset
// does not wait for a running callback, and a callback slower than the
// period (a loaded machine) overlaps the next one. What fails then is the
// code's (two callbacks at once), not a timeout's: an early move that
// fires only such timers is no early move to driver.go (earlyTime).
//
//go:norace
func (s *sched) overlapping(vt *vtimer) bool {
	return vt.kind == tkFunc && vt.cb != nil && !vt.cb.exited
}

// realTimePassed moves the virtual clock by the real time since start,
// spent waiting while goroutines are in real I/O or wait outside control
// for something other than a lock (testify's Eventually ticking on the
// real clock, whose condition calls into the program: the program's
// timers must fire meanwhile, as they would in a synctest bubble), but
// not past the next deadline: what happens outside
// control takes real time, so a timer armed around it fires only after as
// much real time (fireTimers jumps to it when nothing else can happen).
// The scheduler's own time is not counted: it would make timeouts fire
// early on a slow machine; nor is a wait for a lock of code that is not
// rewritten (a loaded machine must not make the clock of a pure test
// depend on timing).
//
//go:norace
func (s *sched) realTimePassed(start time.Time) { s.advanceReal(time.Since(start)) }

// advanceReal moves the clock by d of real time, not past the next
// deadline. A replay does not while it follows its schedule's decisions:
// it moves the clock where they say real time had moved it
// (replayClock), so that its own waits, longer on a loaded machine, do
// not change what the program reads from the clock.
//
//go:norace
func (s *sched) advanceReal(d time.Duration) {
	if s.replay != nil && s.diverged == "" && s.steps < len(s.replay.Decisions) {
		return
	}
	before := s.now
	s.advance(d)
	if s.now != before {
		s.realMoved = true
	}
}

// keepPace keeps the clock from lagging real time while a controlled
// goroutine waits on the outside world (outsideWorld: a request to a real
// server, whose handler takes real time): from when the first of them
// left, the clock reads at least as much later as real time does. Where
// real time has passed pending deadlines, what is due by then fires
// (Decision.Paced), as it would have under go test while the program
// waited out there; it reports whether it fired (the caller decides
// again). With nobody out there the clock jumps as before. Without it,
// the time the scheduler spent finding such goroutines blocked
// (outsideSlice each) and running the others was lost: a handler
// sleeping 100ms answered at 50ms of the clock. Never in a synctest
// bubble, whose clock moves only when all in it block.
//
//go:norace
func (s *sched) keepPace() bool {
	if s.replay != nil && s.diverged == "" && s.steps < len(s.replay.Decisions) {
		return s.replayPace(time.Duration(s.replay.Decisions[s.steps].Paced))
	}
	out, others := false, false
	for _, g := range s.outside {
		w := outsideWorld(g)
		out, others = out || w, others || !w
	}
	switch {
	case !out || s.bubble > 0:
		s.paceFrom = time.Time{}
		return false
	case s.paceFrom.IsZero():
		s.paceFrom, s.paceClock = monoNow(), s.now
		return false
	}
	to := s.paceClock + time.Since(s.paceFrom)
	if to <= s.now {
		return false
	}
	if next, ok := s.nextDeadline(); ok && to > next {
		if s.pacedTo != 0 || others {
			// Once per decision (its replay fires there: replayPace), and
			// only while every goroutine outside control waits on the
			// outside world (one slow to park would miss what fires).
			to = next
		} else {
			// Moved from the deadline, as its replay moves (the selects
			// the move commits are judged from there).
			s.advanceReal(next - s.now)
			if !s.fireTimersTo(to) {
				return false
			}
			s.pacedTo, s.realMoved = to, true
			return true
		}
	}
	s.advanceReal(to - s.now)
	return false
}

// catchUp moves the clock, when a goroutine comes back from the outside
// world, to where keepPace would have it: as much later than when the
// first of them left as real time is (not past the next deadline). The
// goroutine's next read must not say less time passed out there than
// did: keepPace moved it only at decisions, and the scheduler's waits
// since the last one (paceForeign's, settle's) were not counted. A
// replay moves it where its decisions say (replayClock).
//
//go:norace
func (s *sched) catchUp() {
	if s.paceFrom.IsZero() || s.bubble > 0 {
		return
	}
	if to := s.paceClock + time.Since(s.paceFrom); to > s.now {
		s.advanceReal(to - s.now)
	}
}

// replayPace fires, before a replayed decision, what keepPace fired in the
// recording when real time passed deadlines (to, Decision.Paced; 0:
// nothing): from the first deadline, as the recording moved, and reports
// whether it did.
//
//go:norace
func (s *sched) replayPace(to time.Duration) bool {
	if to == 0 || s.pacedTo != 0 {
		return false
	}
	s.pacedTo = to
	next, ok := s.nextDeadline()
	if !ok || next > to {
		return false
	}
	moved := s.now
	s.now, s.preClock = next, next
	fired := s.fireTimersTo(to)
	if moved > s.now {
		s.now = moved
	}
	return fired
}

// outsideWorld: is g, outside control for a reason of its own, waiting on
// the outside world: in real I/O, or for something other than a lock in
// code whose time is real (not a mock clock's channel: virtualWait; nor an
// in-process pipe, whose other end is the program's: pipeWait; nor a
// listener's Accept, idle until a client dials: acceptWait)?
//
//go:norace
func outsideWorld(g *gstate) bool {
	return !g.blockedReal && !g.inAccept && (g.inIO || g.inWait && !g.inVirtual && !g.inPipe)
}

// replayClock moves the clock of a replay to where the recording had it at
// the next decision, when real time had moved it there (Decision.Clock).
//
//go:norace
func (s *sched) replayClock() {
	if s.replay == nil || s.diverged != "" || s.steps >= len(s.replay.Decisions) {
		return
	}
	s.preClock = s.now
	if c := time.Duration(s.replay.Decisions[s.steps].Clock); c > s.now {
		s.now = c
	}
}

// after is the deadline d from now on the virtual clock.
//
//go:norace
func (s *sched) after(d time.Duration) time.Duration { return after(s.now, d) }

// after is t+d, saturated as the runtime's timers are: a timer set to the
// longest duration (a loop's "no timer" timer) is never due, rather than
// due at once because the sum wrapped around.
func after(t, d time.Duration) time.Duration {
	if d > 0 && t+d < t {
		return math.MaxInt64
	}
	return t + d
}

// advance moves the clock by d, not past the next deadline; it reports
// whether it reached that deadline.
//
//go:norace
func (s *sched) advance(d time.Duration) (atDeadline bool) {
	t := s.after(d)
	if next, ok := s.nextDeadline(); ok && t >= next {
		t, atDeadline = next, true
	}
	if t > s.now {
		s.now = t
	}
	return atDeadline
}

// outsideTick is how far the clock moves at each decision while a
// goroutine is in real I/O: a round trip through a real connection takes
// some time, without making timeouts fire early. (Only real I/O: a
// goroutine found blocked in a lock of the standard library on a loaded
// machine must not make the clock of a pure test depend on timing.)
const outsideTick = time.Microsecond

// nextDeadline is the earliest pending virtual deadline.
//
//go:norace
func (s *sched) nextDeadline() (time.Duration, bool) { return s.deadlineOf(false) }

// nextReadDeadline is nextDeadline without the tickers whose ticks are
// dropped (unread).
//
//go:norace
func (s *sched) nextReadDeadline() (time.Duration, bool) { return s.deadlineOf(true) }

// deadlineOf is nextDeadline, without the unread tickers when readOnly.
//
//go:norace
func (s *sched) deadlineOf(readOnly bool) (time.Duration, bool) {
	var next time.Duration
	found := false
	for _, vt := range s.tq {
		if s.due(vt) && !(readOnly && unread(vt)) && (!found || vt.deadline < next) {
			next, found = vt.deadline, true
		}
	}
	for _, g := range s.gs {
		if g.parked && !g.exited && g.req.op == opSleep && (!found || g.wakeAt < next) {
			next, found = g.wakeAt, true
		}
	}
	return next, found
}

// resumeTickers puts the tickers whose ticks were dropped (fireTimersTo)
// and whose channel has since been read back on their period: the next
// tick is the first after now.
//
//go:norace
func (s *sched) resumeTickers() {
	if len(s.skipped) == 0 {
		return
	}
	kept := s.skipped[:0]
	for _, vt := range s.skipped {
		switch {
		case !vt.active:
		case unread(vt):
			kept = append(kept, vt)
		case vt.deadline > s.now+vt.period:
			vt.deadline -= (vt.deadline - s.now - 1) / vt.period * vt.period
		}
	}
	s.skipped = kept
}

// unread: is vt a ticker whose channel still holds its last tick? A tick
// then is dropped.
//
//go:norace
func unread(vt *vtimer) bool {
	return vt.kind == tkTicker && vt.ch != nil && cap(vt.ch) > 0 && len(vt.ch) == cap(vt.ch)
}

// applyTimer performs a timer operation on the virtual clock.
//
//go:norace
func (s *sched) applyTimer(g *gstate, rep *reply) {
	r := &g.req
	switch r.op {
	case opTimerNew:
		s.tseq++
		vt := &vtimer{kind: r.timerKind, seq: s.tseq, deadline: s.after(r.d), active: true, fn: r.fn, hb: new(uint32), armedAt: s.now, armStep: s.steps + 1, armD: r.d, ctx: r.ctxTimer, bubble: g.bubble}
		if r.ctxD > 0 {
			vt.armD = r.ctxD // WithTimeout's, not what was left when armed
		}
		if g.cbOf != nil {
			vt.idleIn = g.cbOf.idleIn // a callback re-arming: as idle as it
		}
		rep.hb = vt.hb
		if r.timerKind != tkFunc {
			vt.ch = make(chan time.Time, 1)
			rep.ch = vt.ch
		}
		switch r.timerKind {
		case tkTimer, tkFunc:
			t := newTimerBox(r.timerKind, vt.ch, r.fn)
			s.timers[t] = vt
			rep.timer = t
		case tkTicker:
			vt.period = r.d
			t := &time.Ticker{C: vt.ch}
			s.tickers[t] = vt
			rep.ticker = t
		}
		s.tq = append(s.tq, vt)
	case opTimerStop, opTimerReset:
		vt := s.timers[(*time.Timer)(r.obj)]
		if vt == nil {
			vt = s.adoptTimer((*time.Timer)(r.obj))
		}
		if vt == nil {
			rep.mode = mSkip
			return
		}
		if asyncTimerChan {
			// Before Go 1.23: a value sent stays in C, and the
			// timer counts as expired. A value left by a Reset is
			// stale: read later, the timer seems to have expired
			// again (a Stop's is what its drain takes).
			rep.ok = vt.active
			s.setStale(vt, r.op == opTimerReset && len(vt.ch) > 0)
		} else {
			// Go 1.23: a value due but not yet received is not
			// delivered after Stop or Reset, and the timer counts
			// as stopped by them.
			rep.ok = vt.active || len(vt.ch) > 0
			s.drain(vt.ch)
		}
		vt.active = false
		if r.op == opTimerReset {
			vt.active = true
			vt.deadline, vt.armedAt = s.after(r.d), s.now
			vt.armStep, vt.armD = s.steps+1, r.d
			rep.hb = vt.hb
		}
	case opTickerStop, opTickerReset:
		vt := s.tickers[(*time.Ticker)(r.obj)]
		if vt == nil {
			rep.mode = mSkip
			return
		}
		vt.active = false
		if !asyncTimerChan {
			s.drain(vt.ch)
		} else {
			s.setStale(vt, r.op == opTickerReset && len(vt.ch) > 0)
		}
		if r.op == opTickerReset {
			vt.active = true
			vt.period = r.d
			vt.deadline, vt.armedAt = s.after(r.d), s.now
			vt.armStep, vt.armD = s.steps+1, r.d
			rep.hb = vt.hb
		}
	}
}

// adoptTimer takes a virtual timer an earlier schedule made (kept in a
// pool, say) onto this schedule's clock, stopped; nil for a real timer.
//
//go:norace
func (s *sched) adoptTimer(t *time.Timer) *vtimer {
	b := boxOf(t)
	if b == nil {
		return nil
	}
	s.viaHelper(b.stopReal)
	s.tseq++
	vt := &vtimer{kind: b.kind, seq: s.tseq, ch: b.send, fn: b.fn, hb: new(uint32)}
	s.timers[t] = vt
	s.tq = append(s.tq, vt)
	return vt
}

// drain empties a timer channel (Go 1.23 semantics: no stale value after
// Stop or Reset).
//
//go:norace
func (s *sched) drain(ch chan time.Time) {
	if len(ch) == 0 {
		return
	}
	s.viaHelper(func() {
		select {
		case <-ch:
		default:
		}
	})
}

// viaHelper runs f on a fresh goroutine and waits for it through the
// semaphore. S must never acquire another goroutine's vector clock (it would
// pass it on to every goroutine S later releases something to), and a
// buffered channel operation acquires the clock of the slot's last user:
// so S's channel operations run on throw-away goroutines.
//
//go:norace
func (s *sched) viaHelper(f func()) {
	w := new(uint32)
	go helperMain(f, w)
	s.waitStep(nil, w, 0)
}

func helperMain(f func(), w *uint32) {
	f()
	bump(w)
}

// wakeLate is how far past a deadline the clock jumps to reach it: a
// sleeper or a timer wakes after its deadline, not at it, as the runtime's
// timers fire late, so that a stamp taken while it slept plus the slept
// duration is before the time it wakes to (a window that expires by
// lastError+timeout, go-resiliency's breaker).
const wakeLate = time.Microsecond

// fireTimers advances the virtual clock just past the earliest pending
// deadline (wakeLate) and fires what is due. It reports whether there was anything to fire.
//
//go:norace
func (s *sched) fireTimers() bool { return s.fireTimersTo(-1) }

// fireTimersTo is fireTimers with the clock moved just past the deadline
// to instead (the earliest when negative): what is due by then fires.
//
//go:norace
func (s *sched) fireTimersTo(to time.Duration) bool {
	next, found := s.nextDeadline()
	if !found {
		return false
	}
	if to >= 0 && to > next {
		next = to
	}
	before, idle := s.now, s.aheadIdle || !s.anyEnabled() // before the clock moves (commit.go)
	if s.replay != nil && s.diverged == "" && s.steps < len(s.replay.Decisions) && s.replay.Decisions[s.steps].Clock != 0 {
		// replayClock moved the clock already: selects commit as they
		// did when the recording moved it, judged from where it was.
		before = s.preClock
	}
	if next > s.now {
		late := wakeLate
		if s.bubble > 0 {
			late = 0 // a synctest bubble's clock is exact
		}
		s.now = after(next, late)
		s.tickReal()
		s.timedCollect(idle)
	}
	due := []*vtimer{}
	keep := s.tq[:0]
	for _, vt := range s.tq {
		if s.due(vt) && vt.deadline <= s.now {
			due = append(due, vt)
		}
		if vt.active || vt.kind != tkAfter {
			keep = append(keep, vt)
		}
	}
	s.tq = keep
	sort.Slice(due, func(i, j int) bool {
		if due[i].deadline != due[j].deadline {
			return due[i].deadline < due[j].deadline
		}
		return due[i].seq < due[j].seq
	})
	for _, vt := range due {
		if s.spinRun > 0 || s.spinClock > 0 {
			vt.idleIn = s.spinEpoch + 1 // idle unless someone progresses
		}
		switch vt.kind {
		case tkTicker:
			vt.armedAt = s.now
			vt.deadline = after(vt.deadline, vt.period)
			if vt.deadline <= s.now {
				vt.deadline = s.after(vt.period)
			}
			if unread(vt) {
				// Its last tick is still in its channel: this one and
				// the next are dropped, as the runtime drops them, until
				// something else is due or the channel is read
				// (resumeTickers). One fire each would move the clock by
				// the period, waking nobody: a 1 ns ticker left running
				// (httprc's backend) used up idleFiresCap and a sleeping
				// test was called deadlocked.
				if next, ok := s.nextReadDeadline(); ok && next > vt.deadline {
					vt.deadline += (next - vt.deadline + vt.period - 1) / vt.period * vt.period
					if !slices.Contains(s.skipped, vt) {
						s.skipped = append(s.skipped, vt)
					}
				}
				continue
			}
		default:
			vt.active = false
		}
		if vt.kind == tkFunc {
			if !s.overlapping(vt) {
				s.firedOther = true
			}
			c := s.newG()
			vt.cb = c
			c.cbOf = vt
			c.bubble = vt.bubble // a bubble's AfterFunc runs in it (bubbleIdle waits for it)
			s.firedCbs = append(s.firedCbs, c)
			s.running = append(s.running, c)
			fn, hb := vt.fn, vt.hb
			go childMain(c, func() { fired(hb); fn() })
			continue
		}
		s.firedOther = true
		ch, v, hb := vt.ch, s.base.Add(s.now), vt.hb
		// The value goes to a select blocked on the channel, if any.
		s.completes(reflect.ValueOf(ch).UnsafePointer(), reflect.ValueOf(ch), true, idle, before, byTime)
		s.viaHelper(func() {
			fired(hb)
			select {
			case ch <- v:
			default:
			}
		})
	}
	return true
}

// earlyOdds: at a decision where a goroutine waits on a timer's channel
// while others can run, the strategy moves the clock to the next
// deadline (at most earlyMax ahead) first, with odds of 1 in earlyOdds (never on the unperturbed
// schedule, nor after the test returned). On a loaded machine the
// goroutines that could run may not have run when the timer is due: the
// code's timeout path then runs against them (a drain of a timer already
// received from, a close while a worker still sends). A test that fails
// on such a schedule most likely failed on its own timeout: driver.go
// tells no failure of it (Result.Inconclusive).
const earlyOdds = 16

// earlyTime moves the clock to the next deadline before a decision, firing
// what is due, when the strategy (or the replayed decision) says so. It
// reports whether it did: the caller decides again. With Config.KeepEarly
// or Config.EarlySleep it may jump further, to a sleeper's wake-up or a waited timer's
// deadline (earlyTargets), firing everything due up to it; the decision
// then records the clock (Decision.Clock), which its replay moves to first.
//
//go:norace
func (s *sched) earlyTime(list []Candidate) bool {
	if s.earlyDue {
		return false // moved already for this decision
	}
	if s.bubble > 0 {
		// A synctest bubble's clock moves only when every goroutine in it
		// is blocked: no machine ends a sleep or fires a timer there
		// before the others ran (workerpool's pacer test panicked so).
		return false
	}
	if s.timerPending() || len(s.sleeping) > 0 {
		// A timer could fire, or a sleep end, before the one running
		// goes on (early moves; a loaded machine's delay).
		s.choices++
	}
	to := time.Duration(-1) // the next deadline
	delayed := false
	if s.replay != nil && s.diverged == "" {
		if s.steps >= len(s.replay.Decisions) || !s.replay.Decisions[s.steps].Early {
			return false
		}
		if s.replay.Decisions[s.steps].Clock != 0 {
			// replayClock moved the clock where the recording's move
			// took it. When nothing is due by then, an idle move of this
			// step fired it already: the move is done, and going on to
			// the next deadline would fire what the recording did not.
			if next, ok := s.nextDeadline(); !ok || next > s.now {
				s.earlyDue = true
				return false
			}
		}
	} else if s.cfg.KeepEarly || s.cfg.EarlySleep {
		if _, ok := s.strat.(Plain); ok || s.testDone {
			return false
		}
		far := s.farNow(list)
		ts := s.earlyTargets(far)
		if d, ok := s.ownDeadline(list); ok && !far {
			ts = addDeadline(ts, d)
		}
		jump := false
		if len(ts) > 0 && !far {
			if s.cfg.KeepEarly && s.heldAll(list) {
				jump = true // their delay goes on (heldRun)
			} else if s.cfg.KeepEarly && s.delayed(list) {
				jump = s.strat.Choose(earlyDelayedOdds, s.steps) != 0
				delayed = jump
			} else {
				jump = s.strat.Choose(s.earlyOddsFor(list), s.steps) == 1
			}
		}
		if len(ts) == 0 || !far && !jump {
			return false
		}
		to = ts[s.strat.Choose(len(ts), s.steps)]
		if to-s.now > earlyMax {
			s.farFires++
		}
	} else {
		if _, ok := s.strat.(Plain); ok || s.testDone {
			return false
		}
		if !s.timerWaited() {
			// Or a timer fires while its own goroutine runs on to
			// it (ownDeadline), past what is due before.
			own, ok := s.ownDeadline(list)
			if !ok {
				return false
			}
			to = own
		}
		if s.strat.Choose(earlyOdds, s.steps) != 1 {
			return false
		}
	}
	s.firedOther, s.firedCbs = false, s.firedCbs[:0]
	before := s.now
	if s.replay != nil && s.diverged == "" {
		before = s.preClock // replayClock moved it already
	}
	s.earlyBefore()
	if !s.fireTimersTo(to) {
		return false
	}
	if to >= 0 {
		s.realMoved = true // recorded: a replay moves its clock there first
	}
	s.earlyDue = true
	if delayed {
		// The delayed stay so while those the move woke run (heldRun).
		s.held = s.held[:0]
		for _, c := range list {
			s.held = append(s.held, s.gs[c.G])
		}
		s.heldLeft = delayedHold
	}
	if s.firedOther || s.sleeperDue() {
		s.earlyFires++
		s.earlyNote(list, before)
	} else {
		// Only callbacks beside their own (overlapping): the goroutines
		// that could run stay delayed while the new callbacks can run
		// (sched.go, overlapRun), as the delay that let them overlap.
		s.overlapFires++
		s.overlapGs = append(s.overlapGs[:0], s.firedCbs...)

	}
	return true
}

// sleeperDue: is a time.Sleep due and not yet ended? Judged after the
// move, as a replay sees it (replayClock moves its clock before).
//
//go:norace
func (s *sched) sleeperDue() bool {
	for _, g := range s.gs {
		if g.parked && !g.exited && g.req.op == opSleep && g.wakeAt <= s.now {
			return true
		}
	}
	return false
}

// earlyOddsFor is the 1 in n of an early jump (Config.KeepEarly,
// EarlySleep) before a decision among list: with EarlySleep (pr's),
// earlyAimedOdds when a targeted schedule (Targeted, not off) has a
// goroutine that could run parked at a target, earlyOdds otherwise. A goroutine about to run
// changed code is the one a loaded machine's delay matters for (a Start
// whose first lock a Stop beats), as a preemption there is.
//
//go:norace
func (s *sched) earlyOddsFor(list []Candidate) int {
	if t, ok := s.strat.(*Targeted); ok && !t.off && s.cfg.EarlySleep {
		for _, c := range list {
			if t.atTarget(c) {
				return earlyAimedOdds
			}
		}
	}
	return earlyOdds
}

// earlyAimedOdds: see earlyOddsFor.
const earlyAimedOdds = 4

// A loaded machine's delays come in stretches: a goroutine that could run
// and did not for a while (its thread off the CPU for a time slice, its
// run queue behind another) most likely stays so for a while longer, far
// longer than a goroutine's step. So a sleep or a timer that ends
// meanwhile most likely ends before it runs at all (a consumer that never
// started draining a full buffer), not after it ran part of its work.
// With Config.KeepEarly (repro's, where after an early jump only the log's
// failure counts), when every goroutine that could run has been passed
// over at the last delayedRun decisions in a row (delayed), the clock
// jumps with odds of earlyDelayedOdds-1 in earlyDelayedOdds, and they stay
// delayed while the goroutines it woke can run, a sleep or a timer due
// meanwhile ending before them too, for at most delayedHold decisions
// (heldRun, heldAll); once one of them runs, the plain odds again. The strategy makes such stretches (a low PCT
// priority); these odds keep the jump inside them.
const (
	delayedRun       = 8
	earlyDelayedOdds = 8
)

// delayedHold bounds the decisions for which the goroutines a delayed
// jump went past stay delayed (heldRun): a time slice is long, not
// endless, and a goroutine the move woke may wait for them in a loop.
const delayedHold = 64

// heldRun: the goroutines of cands that can run while those a delayed
// jump went past (held) stay delayed: the others, for at most delayedHold
// decisions after the jump; nil once the delay is over (none of the
// others can run, or the bound).
//
//go:norace
func (s *sched) heldRun(cands []*gstate) []*gstate {
	if s.heldLeft <= 0 {
		s.held = s.held[:0]
		return nil
	}
	s.heldLeft--
	var rest []*gstate
	for _, g := range cands {
		in := false
		for _, h := range s.held {
			in = in || g == h
		}
		if !in {
			rest = append(rest, g)
		}
	}
	if len(rest) == 0 {
		s.held, s.heldLeft = s.held[:0], 0
	}
	return rest
}

// heldAll: are the goroutines of list (some) all held (heldRun)? Then a
// sleep or a timer due ends before them: their delay goes on.
//
//go:norace
func (s *sched) heldAll(list []Candidate) bool {
	if s.heldLeft <= 0 || len(list) == 0 {
		return false
	}
	for _, c := range list {
		in := false
		for _, h := range s.held {
			in = in || h.id == c.G
		}
		if !in {
			return false
		}
	}
	return true
}

// delayed: has every goroutine of list been passed over at the last
// delayedRun decisions (countPassed)?
//
//go:norace
func (s *sched) delayed(list []Candidate) bool {
	if len(list) == 0 {
		return false
	}
	for _, c := range list {
		if c.G < 0 || c.G >= len(s.gs) {
			return false
		}
		if at, n := s.passCount(s.gs[c.G]); at != s.steps-1 || n < delayedRun {
			return false
		}
	}
	return true
}

// countPassed counts, before the decision that runs pick, the decisions in
// a row at which each of cands could run and another ran. A goroutine that
// stays ready is counted lazily (gstate.lazy, passCount): one decision
// then costs in proportion to the goroutines that became ready since the
// last and the blocked ones that can run, not to all that can (a
// thousand workers woken at once, each run to its end in turn).
//
//go:norace
func (s *sched) countPassed(cands []*gstate, pick *gstate) {
	nr := len(s.ready)
	if len(cands) < nr || nr > 0 && &cands[0] != &s.ready[0] {
		// Fewer than the ready set (notSpinning, overlapRun): one by one,
		// each ready one from here.
		for _, g := range s.ready {
			s.settlePass(g)
		}
		s.passRun()
		for _, g := range cands {
			s.countPass(g, pick)
		}
		for _, g := range s.freshReady {
			g.inFresh = false
		}
		s.freshReady = s.freshReady[:0]
		for _, g := range s.ready {
			g.inFresh = true
			s.freshReady = append(s.freshReady, g)
		}
	} else {
		s.settlePass(pick)
		s.passRun()
		for _, g := range cands[nr:] {
			s.countPass(g, pick)
		}
		if pick.set == setReady && !pick.inFresh {
			s.countPass(pick, pick)
		}
		for _, g := range s.freshReady {
			g.inFresh = false
			if g.set != setReady {
				continue // it left the ready set since
			}
			s.countPass(g, pick)
			if g != pick {
				g.lazy, g.lazyAt = true, s.steps
			}
		}
		s.freshReady = s.freshReady[:0]
		if pick.set == setReady {
			// decide takes it out of the ready set; should it stay, it
			// is counted one by one at the next decision.
			pick.inFresh = true
			s.freshReady = append(s.freshReady, pick)
		}
	}
	s.passLast = s.steps
	if checkPassCounts {
		s.checkPassed(cands, pick)
	}
}

// checkPassCounts, set by rt's tests, counts every candidate one by one as
// well and panics when a lazy count differs.
var checkPassCounts bool

// passCounted counts countPass's calls (rt's tests).
var passCounted int

// checkPassed counts cands one by one in gstate.check and compares.
//
//go:norace
func (s *sched) checkPassed(cands []*gstate, pick *gstate) {
	for _, g := range cands {
		c := &g.check
		if c.passAt != s.steps-1 {
			c.passed = 0
		}
		c.passAt = s.steps
		if g == pick {
			c.passed = 0
		} else {
			c.passed++
		}
		if at, n := s.passCount(g); at != c.passAt || n != c.passed {
			panic("interleave: internal error: g" + strconv.Itoa(g.id) + "'s lazy pass count " + strconv.Itoa(n) + " at " + strconv.Itoa(at) + ", counted one by one " + strconv.Itoa(c.passed) + " at " + strconv.Itoa(c.passAt))
		}
	}
}

// passRun notes a decision about to be counted: a new run of counted
// decisions when the step before was not counted. Lazy counts are settled
// before it (passCount reads passFrom).
//
//go:norace
func (s *sched) passRun() {
	if s.passLast != s.steps-1 {
		s.passFrom = s.steps
	}
}

// countPass counts one decision for candidate g, pick running.
//
//go:norace
func (s *sched) countPass(g, pick *gstate) {
	passCounted++
	if g.passAt != s.steps-1 {
		g.passed = 0 // not a candidate at the last decision
	}
	g.passAt = s.steps
	if g == pick {
		g.passed, g.passedOver = 0, false
		return
	}
	g.passed++
	if !g.passedOver || g.passedIdle != s.idleSeq {
		g.passedSince, g.passedIdle, g.passedOver = s.now, s.idleSeq, true
		if s.passSinceSeq != s.idleSeq || s.now < s.passSinceMin {
			s.passSinceMin, s.passSinceSeq = s.now, s.idleSeq
		}
	}
}

// passCount is g's passAt and passed as the decisions counted so far left
// them.
//
//go:norace
func (s *sched) passCount(g *gstate) (at, passed int) {
	if !g.lazy {
		return g.passAt, g.passed
	}
	if s.passFrom <= g.lazyAt {
		return s.passLast, g.passed + s.passLast - g.lazyAt
	}
	// Not counted at some step since: counted anew from passFrom.
	return s.passLast, s.passLast - s.passFrom + 1
}

// settlePass ends g's lazy count (it leaves the ready set, or runs).
//
//go:norace
func (s *sched) settlePass(g *gstate) {
	if g.lazy {
		g.passAt, g.passed = s.passCount(g)
		g.lazy = false
	}
}

// timeSlice is how long of the clock the unperturbed schedule passes over
// a goroutine that can run before it runs it (plainOverdue): the runtime
// preempts a goroutine that ran 10ms.
const timeSlice = 10 * time.Millisecond

// plainOverdue is, for the unperturbed schedule, the candidate passed
// over since longest (gstate.passedSince), when that is more than
// timeSlice of the clock, or nil. The clock moves while goroutines can
// run only when it keeps pace with real time (keepPace: a goroutine waits
// on the outside world) or for a spinner: there Plain's running on the
// newest goroutine would starve the others as no machine does (the
// runtime's time slice; a mutex handed to a waiter of 1ms), and a timeout
// the program set would run out for the tool's order alone (yamux's
// keepalive behind a stream's writer).
//
//go:norace
func (s *sched) plainOverdue(cands []*gstate) *gstate {
	if g := s.spinStarved(cands); g != nil {
		return g
	}
	none := s.passSinceSeq != s.idleSeq || s.now-s.passSinceMin <= timeSlice // none passed over long enough (countPass)
	if none && !checkPassCounts {
		return nil
	}
	var oldest *gstate
	for _, g := range cands {
		if g.passedOver && g.passedIdle == s.idleSeq && s.now-g.passedSince > timeSlice && (oldest == nil || g.passedSince < oldest.passedSince) {
			oldest = g
		}
	}
	if none && oldest != nil {
		panic("interleave: internal error: passSinceMin misses an overdue goroutine")
	}
	return oldest
}

// spinStarved is, in a run of spinAdvance decisions or more that only
// spun, the candidate passed over most, when that is spinAdvance
// decisions in a row or more, or nil: the unperturbed schedule's time
// slice for spinners. The clock does not move for spinners that do not
// read it, so plainOverdue's slice of the clock never ends for them:
// xsync's SPSC queue test spins a producer and a consumer on atomic
// loads, and Plain ran the consumer on alone, never the producer's next
// load (which would have found room), until the livelock rule told a
// livelock no machine has (each spins on a core of its own, or the
// runtime preempts; PCT lets one run pctStarve steps at most).
//
//go:norace
func (s *sched) spinStarved(cands []*gstate) *gstate {
	if s.spinRun < spinAdvance {
		return nil
	}
	var most *gstate
	mostN := 0
	for _, g := range cands {
		if _, n := s.passCount(g); n >= spinAdvance && (most == nil || n > mostN) {
			most, mostN = g, n
		}
	}
	return most
}

// farNow: does the clock jump now, and may it go further than earlyMax
// (earlyTargets)? With EarlySleep (pr's), in a targeted schedule
// (Targeted, not off), at the first decision where a goroutine that could
// run is parked at a target while another waits for a timer or a sleep
// beyond earlyMax, 1 in farOdds (once per schedule: the others keep their
// leaks, deadlocks and failures). A constructor whose changed line
// publishes a field after it started the goroutine that reads it on every
// tick races with that tick, whatever the ticker's period. Only a data
// race counts on a schedule that jumped so far (driver.go, farFires): the
// race detector's happens-before does not depend on when the timer fired,
// a failure or a leak there may be the test's own timeout.
//
//go:norace
func (s *sched) farNow(list []Candidate) bool {
	if s.farDrawn {
		return false
	}
	t, ok := s.strat.(*Targeted)
	if !ok || t.off || !s.cfg.EarlySleep {
		return false
	}
	aimed := false
	for _, c := range list {
		aimed = aimed || t.atTarget(c)
	}
	if !aimed || !s.farWaited() {
		return false
	}
	s.farDrawn = true
	return s.strat.Choose(farOdds, s.steps) == 0
}

// farOdds: see farNow.
const farOdds = 4

// farWaited: does a goroutine wait for a timer or a sleep beyond earlyMax
// (as earlyTargets counts them)?
//
//go:norace
func (s *sched) farWaited() bool {
	for _, d := range s.earlyTargets(true) {
		if d-s.now > earlyMax {
			return true
		}
	}
	return false
}

// earlyTargets lists, earliest first, the deadlines within earlyMax (any,
// when far: farNow) that a goroutine waits for (Config.KeepEarly,
// Config.EarlySleep): its time.Sleep, or a timer timerWaited would count.
//
//go:norace
func (s *sched) earlyTargets(far bool) []time.Duration {
	limit := time.Duration(earlyMax)
	if far {
		limit = math.MaxInt64
	}
	var ts []time.Duration
	add := func(d time.Duration) {
		for _, t := range ts {
			if t == d {
				return
			}
		}
		ts = append(ts, d)
	}
	for _, vt := range s.tq {
		if vt.active && vt.deadline-s.now <= limit && s.waited(vt) {
			add(vt.deadline)
		}
	}
	for _, g := range s.gs {
		if g.parked && !g.exited && g.req.op == opSleep && g.wakeAt > s.now && g.wakeAt-s.now <= limit {
			add(g.wakeAt)
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	return ts
}

// earlyMax is the furthest the clock jumps early (earlyTime): a delay a
// loaded machine gives goroutines that could run. A test's hour-long
// safety timeout is not fired ahead of a worker that could run.
const earlyMax = 250 * time.Millisecond

// timerPending: a virtual timer is set (a choice for earlyTime).
//
//go:norace
func (s *sched) timerPending() bool {
	for _, vt := range s.tq {
		if vt.active {
			return true
		}
	}
	return false
}

// timerWaited: is a goroutine blocked (nothing else ready) at a receive or
// a select on the channel of a timer or ticker due within earlyMax? Or is
// an AfterFunc due within earlyMax while a goroutine is blocked: its
// callback (a timeout that closes, cancels or gives up) may run before
// the goroutines that could run on a loaded machine, as a timer's value
// may come first.
//
//go:norace
func (s *sched) timerWaited() bool {
	for _, vt := range s.tq {
		if vt.active && vt.deadline-s.now <= earlyMax && s.waited(vt) {
			return true
		}
	}
	return false
}

// waited is timerWaited's test of one timer.
//
//go:norace
func (s *sched) waited(vt *vtimer) bool {
	if s.overlapping(vt) {
		return true
	}
	if vt.fn != nil && !vt.carried {
		for _, g := range s.blocked {
			if !s.enabled(g) {
				return true
			}
		}
		return false
	}
	if vt.ch == nil {
		return false
	}
	p := reflect.ValueOf(vt.ch).UnsafePointer()
	for _, g := range s.blocked {
		if s.enabled(g) && !s.lateSelect(g) {
			continue // it takes a ready case first
		}
		switch g.req.op {
		case opRecv:
			if g.req.obj == p {
				return true
			}
		case opSelect:
			for _, c := range g.req.cases {
				if !c.send && c.ptr == p {
					return true
				}
			}
		}
	}
	return false
}

// settleMax bounds the AfterFunc firings after a schedule's end
// (settleAfterFuncs): a callback that re-arms itself for ever is carried
// once that many have fired.
const settleMax = 64

// settleAfterFuncs fires the earliest AfterFunc timer still pending once
// the test and every goroutine have ended, under control and recorded
// like any decision: a timeout armed in the test (a cache's cleanup) runs
// its callback in this schedule rather than in the next one of the
// process, which a replay in a fresh process would not have. The callback
// runs after the test, as go test would run it only if the process lived
// on: a failure of it says nothing about the test (driver.go: the
// schedule is inconclusive). It reports whether it fired one.
//
//go:norace
func (s *sched) settleAfterFuncs() bool {
	if s.fail != nil || s.aborting || s.settled >= settleMax {
		return false
	}
	var next *vtimer
	for _, vt := range s.tq {
		if vt.kind == tkFunc && s.due(vt) && (next == nil || vt.deadline < next.deadline) {
			next = vt
		}
	}
	if next == nil {
		return false
	}
	if next.deadline > s.now {
		s.now = after(next.deadline, wakeLate)
		s.tickReal()
	}
	s.settled++
	return s.fireTimers()
}

// carriedTimer is an AfterFunc timer still pending when its schedule
// ended, with the virtual time it had left.
type carriedTimer struct {
	t    *time.Timer
	vt   *vtimer
	left time.Duration
}

// carried holds the AfterFunc timers the last schedule of this process
// left pending (owned by the scheduler goroutines, one after another).
// Under go test -count or a later test of the package, such a timer's
// real counterpart fires then, at the time it had left: a cache's
// cleanup timer armed in one run expires the items of the next, which
// arms no timer of its own while the old one is pending. The next
// schedule takes them onto its clock (adoptCarried). They fire only
// while its test runs: once the test has returned, go test goes on to
// the next test without waiting for them.
var carried []carriedTimer

// carryTimers keeps the pending AfterFunc timers of s for the next
// schedule. Timers with a channel, and tickers, are not carried: the
// goroutines receiving from them were this schedule's, and are left
// outside control now.
//
//go:norace
func (s *sched) carryTimers() {
	carried = carried[:0]
	for t, vt := range s.timers {
		if vt.kind == tkFunc && vt.active {
			left := vt.deadline - s.now
			if left < 0 {
				left = 0
			}
			carried = append(carried, carriedTimer{t: t, vt: vt, left: left})
		}
	}
	sort.Slice(carried, func(i, j int) bool { return carried[i].vt.seq < carried[j].vt.seq })
}

// adoptCarried puts the timers the last schedule left pending on the
// clock of s, in the order they were made, each due after the time it had
// left.
//
//go:norace
func (s *sched) adoptCarried() {
	for i, c := range carried {
		s.tseq++
		vt := &vtimer{kind: tkFunc, seq: s.tseq, deadline: c.left, active: true, fn: c.vt.fn, hb: c.vt.hb, carried: true}
		s.timers[c.t] = vt
		s.tq = append(s.tq, vt)
		carried[i] = carriedTimer{}
	}
	carried = carried[:0]
}

// due reports whether vt is pending on this schedule's clock: a carried
// timer only while the test runs.
//
//go:norace
func (s *sched) due(vt *vtimer) bool { return vt.active && !(vt.carried && s.testDone) }

// Timer fires in a row that enabled no goroutine (sched.idleFires): at
// most idleFiresCap, and idleFiresLeftCap once the test returned with
// goroutines outside control. Each such fire first waits for those
// goroutines (up to outsideWait of real time), and go test would have
// left them behind: redcon's TestPubSub, its accept loop in real I/O and
// a 30 s time.Tick nobody receives from, waited a second of real time for
// each of 1,000 fires of it before the leftover was abandoned.
const (
	idleFiresCap     = 1000
	idleFiresLeftCap = 3
)

//go:norace
func (s *sched) idleFiresMax() int {
	if s.testDone && len(s.outside) > 0 {
		if s.idleFires >= idleFiresLeftCap {
			leftFiresStopped++
		}
		return idleFiresLeftCap
	}
	return idleFiresCap
}

// leftFiresStopped counts the times idleFiresLeftCap stopped the fires,
// for tests.
var leftFiresStopped int
