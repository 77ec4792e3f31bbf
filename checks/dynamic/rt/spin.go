// Spinning and livelock: what a run of decisions that only spun leads to.

package rt

import (
	"bytes"
	"reflect"
	"runtime"
	"strconv"
	"sync/atomic"
	"time"
	"unsafe"
)

// spinTurn runs when the last spinAdvance decisions (or a multiple) only
// spun: channels fed outside control are probed, then the virtual clock
// moves to the next deadline, as real time would while a loop polls. With
// nothing to wait for, a long run of spinning is a livelock. It reports
// whether it did something instead of a decision.
//
//go:norace
func (s *sched) spinTurn() bool {
	if s.holdOutside() && s.waitOutside(outsideWait) {
		// A goroutine outside control in a lock of code that is not
		// rewritten is not blocked for good (synctest would not move the
		// clock while it waits to run): the spinner waits for it before
		// time moves. (Not a system call, as in blockedOutside.)
		s.spinRun = 0
		return true
	}
	if s.probe(false) {
		s.spinRun = 0
		return true
	}
	if s.spinNow || s.parkedAtNow() {
		// A loop reading the clock: time passes for it as it would for
		// real, faster each turn while the spinners repeat themselves
		// (spinLoops); spinners that progress (a scan stamping each
		// entry) get the first step per turn only (1 ms per spinAdvance
		// decisions, longer than a real loop's turns take). With a
		// timer pending, at most half the way to it per turn, and it
		// fires when the clock is near: the loop's own deadline, which
		// no timer marks, may come first.
		if s.nowStep == 0 || !s.spinLoops {
			s.nowStep = time.Millisecond
		}
		step, timer := s.nowStep, false
		if s.idleTimers() {
			// Every timer pending fired while the loop spun and nobody
			// progressed: the clock moves as with none, and what is due
			// by then fires (once: a ticker nobody reads drops ticks).
			if step > time.Second {
				step = time.Second
			}
			s.now += step
			s.tickReal()
			if s.clockHang(step) {
				return true
			}
			if s.nowStep < time.Second && s.spinLoops {
				s.nowStep *= 2
			}
			s.spinRun = 0
			if next, _ := s.nextDeadline(); next <= s.now {
				return s.fireTimersTo(s.now)
			}
			return false
		}
		if next, ok := s.nextDeadline(); ok {
			timer = true
			s.spinClock = 0
			if half := (next - s.now) / 2; half < step {
				step = half
			}
			if step < time.Millisecond && s.fireTimers() {
				s.spinRun = 0
				return true
			}
		} else if step > time.Second {
			step = time.Second
		}
		s.now += step
		s.tickReal()
		if !timer && s.clockHang(step) {
			return true
		}
		if s.spinLoops && (s.nowStep < time.Second || timer && s.nowStep < time.Hour) {
			s.nowStep *= 2
		}
		s.spinRun = 0
		return false
	}
	if !s.spinLoops {
		// The spinners are at work (each at a call it was not at before):
		// they need no time to pass, and no verdict is due.
		return false
	}
	idle := s.idleTimers()
	if !idle && s.fireTimers() {
		s.spinRun = 0
		return true
	}
	if s.spinSame() < livelockPause {
		// Idle timers fire as the loop spins, and the run goes on.
		return idle && s.fireTimers()
	}
	for _, g := range s.gs {
		if g.parked && !g.exited && s.enabled(g) && !spinOp(&g.req) {
			return false // someone could make progress if chosen
		}
	}
	if s.spinSame() >= livelockSpins {
		f := &failure{kind: "fatal", msg: "livelock: " + strconv.Itoa(s.spinRun) + " scheduling steps in a row only spun (Gosched, atomic loads, select default, failed TryLock, time.Now), the last " + strconv.Itoa(s.sameRun) + " rereading the same words with the same values, with no timer pending and no goroutine able to do anything else"}
		s.collectStates(f)
		f.site = pickSite(f.gs)
		s.fail = f
		return true
	}
	// Give goroutines outside control, when there are any that could end
	// it, real time to do so. The verdict counts decisions, not time.
	if s.outsideMayAct() {
		nap(livelockNap)
		livelockNaps.Add(1)
	}
	return idle && s.fireTimers()
}

// A run of spinning decisions is a polling loop only if the spinners
// repeat themselves: workers that each reread a global option while they
// write different entries (VictoriaMetrics' exporters, an atomic load per
// line) spin by the count of decisions but progress. So every spinSample
// spinning decisions the spinners' stacks are sampled; the clock moves
// for them, and a livelock is told, only when every spinner that ran since
// the sample before is at a stack it was at in an earlier sample of the
// spin run, and one is, and no spinner read a word or value it had not
// read in the spin run since that sample (freshLoad). A loop over a few
// spinning sites comes back to one of them within a few samples
// (spinMarkMax of them remembered).
const (
	spinSample  = spinAdvance / 2
	spinMarkMax = 8
)

// sampleSpinners samples the stacks of the goroutines parked at a
// spinning operation and sets spinLoops.
//
//go:norace
func (s *sched) sampleSpinners() {
	s.sampledAt = s.spinCount
	repeated, fresh := 0, 0
	dump := dumpBuf[:runtime.Stack(dumpBuf, true)]
	for len(dump) > 0 {
		var block []byte
		block, dump = cutBlock(dump)
		id, _, ok := blockHeader(block)
		if !ok || id == s.sgid {
			continue
		}
		g := s.tab.lookup(id)
		if g == nil || !g.parked || g.exited || g.outside || !spinOp(&g.req) {
			continue
		}
		if g.spinMarkEpoch != s.spinEpoch {
			g.spinMarkEpoch, g.spinMarkN = s.spinEpoch, 0
		} else if g.lastPick <= g.spinMarkStep {
			continue // it has not run since: no evidence either way
		}
		g.spinMarkStep = s.steps
		h := userStackHash(block)
		if g.hasSpinMark(h) {
			repeated++
			continue
		}
		fresh++
		g.spinMarks[g.spinMarkN%spinMarkMax] = h
		g.spinMarkN++
	}
	// The stacks alone do not tell a loop over entries that rereads one
	// option at one call (VictoriaMetrics' set.go:75, one atomic load of
	// exposeMetadata per metric written) from a polling loop: both come
	// back to the same stack. A scan also reads words it had not read
	// (the entries' own atomic loads), so the spinners repeat themselves
	// only if none read anything new since the last sample either.
	s.spinLoops = repeated > 0 && fresh == 0 && s.spinSame() >= spinSample
}

// hasSpinMark: is h among g's spin marks?
func (g *gstate) hasSpinMark(h uint64) bool {
	n := g.spinMarkN
	if n > spinMarkMax {
		n = spinMarkMax
	}
	for _, m := range g.spinMarks[:n] {
		if m == h {
			return true
		}
	}
	return false
}

// userStackHash hashes (FNV-1a) a goroutine's part of a stack dump from
// the first frame below rt's own (where it parked), arguments and
// offsets included: the same call with the same arguments hashes the same.
// (A frame of this package's tests is not rt's own.)
func userStackHash(block []byte) uint64 {
	_, frames := cutLine(block) // "goroutine N [state]:"
	rest, inRT := frames, false
	for len(rest) > 0 {
		fn, after := cutLine(rest)
		file, next := cutLine(after)
		own := bytes.HasPrefix(fn, []byte(rtPrefix)) && !bytes.Contains(file, []byte("_test.go:"))
		if inRT && !own {
			break
		}
		inRT = inRT || own
		rest = next
	}
	if len(rest) == 0 {
		rest = frames // not parked in rt: all of it
	}
	h := uint64(14695981039346656037)
	for _, c := range rest {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// cutLine cuts the first line off b.
func cutLine(b []byte) (line, rest []byte) {
	if j := bytes.IndexByte(b, '\n'); j >= 0 {
		return b[:j], b[j+1:]
	}
	return b, nil
}

// outsideMayAct: could something outside control change what the spin
// run rereads while real time passes: a controlled goroutine outside
// control, one of the program's tickers on the real clock, a goroutine
// neither the scheduler's nor controlled that runs, is runnable, in a
// system call or network I/O, or sleeps for real (foreignSleep)? A
// dependency's timers are on the virtual clock (the rewriter's), and a
// goroutine blocked otherwise waits for the program, as for a deadlock.
//
//go:norace
func (s *sched) outsideMayAct() bool {
	if len(s.outside) > 0 || realClocks.Load() > 0 || foreignWakes(monoNow().Add(outsideWait)) {
		return true
	}
	busy, io := s.foreignActive()
	return busy || io
}

// livelockNaps counts the naps the spin rule took before a livelock
// verdict, for tests.
var livelockNaps atomic.Int64

// idleTimers: is a timer pending, and has every one pending fired while
// goroutines spun in the current spin run, with nobody progressing since
// (vtimer.idleIn; a sleeper is no such timer)? A ticker nobody reads, or
// an AfterFunc whose callback only re-arms it, is no progress: it does not
// hold off a livelock verdict as a timer that may wake someone does.
//
//go:norace
func (s *sched) idleTimers() bool {
	found := false
	for _, vt := range s.tq {
		if s.due(vt) {
			if vt.idleIn != s.spinEpoch+1 {
				return false
			}
			found = true
		}
	}
	for _, g := range s.gs {
		if g.parked && !g.exited && g.req.op == opSleep {
			return false
		}
	}
	return found
}

// idleOp: does an AfterFunc's callback that does only this, start,
// arm, stop or reset timers, and end, leave everybody where they were?
func idleOp(op opKind) bool {
	switch op {
	case opStart, opExit, opTimerNew, opTimerStop, opTimerReset, opTickerStop, opTickerReset:
		return true
	}
	return false
}

// clockHang adds step to the time the clock moved for a loop reading it
// with no timer pending, nothing outside control and no goroutine able to
// do anything but spin; past livelockClock of it the schedule is a
// livelock: such a loop waits for nothing that can happen (a scheduler's
// start rereading the clock for a one-time job whose time has passed,
// while its caller waits), and under go test it would spin as long.
//
//go:norace
func (s *sched) clockHang(step time.Duration) bool {
	if len(s.outside) > 0 {
		s.spinClock = 0
		return false
	}
	for _, g := range s.gs {
		if g.parked && !g.exited && s.enabled(g) && !spinOp(&g.req) {
			if g.cbOf == nil {
				s.spinClock = 0
			}
			return false // an idle timer's callback: not yet
		}
	}
	s.spinClock += step
	if s.spinClock < livelockClock {
		return false
	}
	f := &failure{kind: "fatal", msg: "livelock: goroutines read the clock in a loop for " + s.spinClock.String() + " of virtual time with no timer pending and no goroutine able to do anything else (every other one blocked)"}
	s.collectStates(f)
	f.site = pickSite(f.gs)
	s.fail = f
	return true
}

//go:norace
func (s *sched) parkedAtNow() bool {
	for _, g := range s.gs {
		if g.parked && !g.exited && g.req.op == opNow {
			return true
		}
	}
	return false
}

// notSpinning: the goroutines of cands parked at an operation a polling
// loop does not repeat, or that have not run since the spinning began (a
// worker checking a stop channel with select default once, before it
// does its work, is no spinner).
//
//go:norace
func (s *sched) notSpinning(cands []*gstate) []*gstate {
	out := s.busyBuf[:0]
	for _, g := range cands {
		if !spinOp(&g.req) || g.lastPick < s.steps-s.spinRun {
			out = append(out, g)
		}
	}
	s.busyBuf = out[:0]
	return out
}

// loadKey is an atomic load's goroutine, its address and the value it
// found. Freshness is each goroutine's own: a worker scanning entries
// another worker scanned before it reads what it had not read, and
// progresses as much as the first.
type loadKey struct {
	g    int
	addr uintptr // not a pointer: the run's memory must not hold the program's objects (a collection)
	val  uint64
}

// spinSame is the length of the spin run that read nothing new.
//
//go:norace
func (s *sched) spinSame() int {
	if s.sameRun < s.spinRun {
		return s.sameRun
	}
	return s.spinRun
}

// forgetLoads empties m, keeping its room (clearMap).
func forgetLoads(m map[loadKey]struct{}) {
	if len(m) > 0 {
		clearMap(m)
	}
}

// loadsMax bounds the loads a spin run remembers: a scan over more words
// than that is progress anyway.
const loadsMax = 1 << 12

// freshLoad: is r, goroutine g's request, an atomic load (or a channel's
// length, ChanLen) of an address, or of a value there, that g has not read
// yet in the current spin run? (A load whose address the rewrite could
// not name is not.)
//
//go:norace
func (s *sched) freshLoad(g int, r *request) bool {
	if r.op != opAtomicLoad && r.op != opChanLen || r.addr == nil {
		return false
	}
	k := loadKey{g, uintptr(r.addr), r.val}
	if _, ok := s.loads[k]; ok {
		return false
	}
	if s.loads == nil {
		s.loads = make(map[loadKey]struct{})
	} else if len(s.loads) >= loadsMax {
		forgetLoads(s.loads)
	}
	s.loads[k] = struct{}{}
	return true
}

// Spinning: after spinAdvance spinning decisions in a row the clock may
// move; after livelockPause of them, with nothing else possible, goroutines
// outside control get real time (livelockNap per spinAdvance decisions,
// when there are any: outsideMayAct); livelockSpins of them are a
// livelock. Both counts are of decisions that read nothing new (sameRun)
// as well: the evidence is counted, whatever the machine's speed.
const (
	spinAdvance   = 64
	livelockPause = 10000
	livelockSpins = 15000
	livelockNap   = 40 * time.Millisecond // per spinAdvance decisions after livelockPause
	// livelockClock: a loop reading the clock with nothing else possible
	// (clockHang); reached in about 8000 decisions, within the step bound.
	livelockClock = 2 * time.Minute
)

// spinOp: is the pending operation one a polling loop repeats without
// changing anything (a select counts when it has a default)? A receive
// from a closed, empty channel is a spinning decision (drainedChan) but
// not a spinning pending operation: a goroutine waiting at one counts as
// one that could act, so a loop of them is never a livelock, and the
// clock moves for it only when the check finds it at a load.
func spinOp(r *request) bool {
	switch r.op {
	case opYield, opAtomicLoad, opChanLen, opNow, opTryLock, opTryWLock, opTryRLock:
		return true
	case opSelect:
		return r.hasDefault
	}
	return false
}

// drainedChan: is channel p closed, with nothing left in its buffer? A
// receive from it returns at once and changes nothing, as a load does:
// a loop of them only spins (ants' ReleaseContext selects on three closed
// channels until the pool's other goroutines, ready, set their flags; the
// unperturbed schedule ran it alone to the step bound, never giving them
// their turn, spinStarved).
//
//go:norace
func (s *sched) drainedChan(p unsafe.Pointer, rv reflect.Value) bool {
	if p == nil || !s.chanOf(p).closed {
		return false
	}
	n, _ := lenCap(p, rv)
	return n == 0
}

// drainedRecv: is select case c a receive from a closed, empty channel?
//
//go:norace
func (s *sched) drainedRecv(c caseReq) bool { return !c.send && s.drainedChan(c.ptr, c.rv) }

// spinning: did the decided operation only spin (a yield, a load, a
// select that took default, a TryLock that failed, a receive from a
// closed, empty channel)? Asked before the goroutine is let go: its
// receive has not taken anything yet.
//
//go:norace
func (s *sched) spinning(r *request, rep reply) bool {
	switch r.op {
	case opYield, opAtomicLoad, opChanLen, opNow:
		return true
	case opTryLock, opTryWLock, opTryRLock:
		return !rep.ok
	case opRecv:
		return s.drainedChan(r.obj, r.rv)
	case opSelect:
		if rep.choice < 0 {
			return true
		}
		return s.drainedRecv(r.cases[rep.choice])
	}
	return false
}
