// Goroutines outside control: found blocked (stack dumps), waited for, taken back.

package rt

import (
	"bytes"
	"runtime"
	"strconv"
	"time"
)

// blockedOutside: is g blocked (not running or runnable) by the runtime's
// account?
//
// It allocates nothing: a goroutine
// slow to come back (a loaded machine) must not show up in a test that
// counts allocations.
//
//go:norace
func (s *sched) blockedOutside(g *gstate) bool { return s.blockedGid(g.gid) }

// blockedGid is blockedOutside for the goroutine with runtime id gid
// (false when there is none).
//
//go:norace
func (s *sched) blockedGid(gid uint64) bool {
	if gid == 0 {
		return false
	}
	dump := dumpBuf[:runtime.Stack(dumpBuf, true)]
	state, i := stateIn(dump, gid)
	if i < 0 {
		return false
	}
	s.lastIO = string(state) == "IO wait"
	// Not a system call: one of the program's own is counted below.
	s.lastWait = len(state) > 0 && !lockState(state) && string(state) != "syscall"
	// A system call of the program's own (a log line written to a slow
	// pipe) holds it like a lock: it comes back by itself. One of rt's
	// own futex sleeps is told by its stack.
	s.lastHold = lockState(state) || string(state) == "syscall" && !rtFutexStack(dump[i:])
	s.lastVirtual = chanWaitState(state) && virtualClockBlock(dump[i:])
	s.lastPipe = chanWaitState(state) && pipeWait(dump[i:])
	s.lastAccept = s.lastIO && acceptWait(dump[i:])
	return len(state) > 0 && !passingState(state)
}

// stateIn is the state of the goroutine with runtime id gid in dump, a
// stack dump of every goroutine ("chan receive"), and where its part
// begins; -1 when it has none.
func stateIn(dump []byte, gid uint64) (state []byte, at int) {
	var head [40]byte
	h := append(strconv.AppendUint(append(head[:0], "goroutine "...), gid, 10), " ["...)
	i := bytes.Index(dump, h)
	if i < 0 {
		return nil, -1
	}
	state = dump[i+len(h):]
	if j := bytes.IndexAny(state, ",]"); j >= 0 {
		state = state[:j]
	}
	return state, i
}

// rtFutexStack: is the goroutine whose part of a stack dump starts block
// in one of rt's own futex sleeps (futexSleep: nap, warmThreads)?
// Hand-offs wait on the runtime's semaphores (sema.go), not in a system call.
func rtFutexStack(block []byte) bool {
	if j := bytes.Index(block, []byte("\n\n")); j >= 0 {
		block = block[:j]
	}
	return bytes.Contains(block, rtFutex)
}

// rtFutex begins the names of this package's futex functions.
var rtFutex = []byte(rtPrefix + "futex")

// passingState: is a goroutine in this state of a stack dump about to run
// again by itself (running, runnable, preempted, waiting on the runtime's
// own semaphore while the world stops, as for this dump or ReadMemStats,
// or assisting the garbage collector)?
func passingState(state []byte) bool {
	switch string(state) {
	case "running", "runnable", "preempted", "semacquire":
		return true
	}
	return bytes.HasPrefix(state, []byte("GC "))
}

// dumpBuf is blockedOutside's buffer, used by one scheduler at a time
// and made before the first schedule starts.
var dumpBuf []byte

// cutBlock cuts the first goroutine's part off a dump of all goroutines
// (parts are separated by a blank line) and returns it and the rest.
//
//go:norace
func cutBlock(dump []byte) (block, rest []byte) {
	if j := bytes.Index(dump, []byte("\n\n")); j >= 0 {
		return dump[:j], dump[j+2:]
	}
	return dump, nil
}

// blockHeader parses the first line of a goroutine's part of a stack
// dump, "goroutine 7 [chan receive, 2 minutes]:": its id and its state
// ("chan receive").
func blockHeader(block []byte) (id uint64, state []byte, ok bool) {
	rest, ok := bytes.CutPrefix(block, []byte("goroutine "))
	if !ok {
		return 0, nil, false
	}
	sp := 0 // digits parsed by hand: a scheduling point must not allocate
	for sp < len(rest) && '0' <= rest[sp] && rest[sp] <= '9' {
		id = id*10 + uint64(rest[sp]-'0')
		sp++
	}
	if sp == 0 || !bytes.HasPrefix(rest[sp:], []byte(" [")) {
		return 0, nil, false
	}
	state = rest[sp+2:]
	if j := bytes.IndexAny(state, ",]"); j >= 0 {
		state = state[:j]
	}
	return id, state, true
}

// reclaim takes back the goroutines outside control that have arrived at
// a scheduling point. It reports whether any had.
//
//go:norace
func (s *sched) reclaim() bool {
	any, world := false, false
	keep := s.outside[:0]
	for _, g := range s.outside {
		if v := g.arrSeq; v != g.arrSeen {
			g.arrSeen = v
			world = world || outsideWorld(g)
			g.outside = false
			s.wasIO = s.wasIO || g.inIO
			g.inIO, g.inWait, g.inHold, g.inVirtual = false, false, false, false
			g.inPipe, g.inAccept = false, false
			g.blockedReal, g.recall = false, nil
			s.progress++
			s.backs++
			s.arrived(g)
			any = true
			continue
		}
		keep = append(keep, g)
	}
	s.outside = keep
	if world {
		s.catchUp()
	}
	return any
}

// waitOutside waits up to d for a goroutine outside control to come back.
//
//go:norace
func (s *sched) waitOutside(d time.Duration) bool {
	return s.waitOutsideUntilVirtual(d, false)
}

// waitOutsideUntilVirtual is waitOutside; with untilVirtual it also stops
// waiting, false, once the goroutines outside control are all blocked on
// channels of code on the virtual clock with nothing else running
// (virtualWait), looked at again while its pause is short: one running a
// moment ago (testify's Eventually between two selects, its condition's
// goroutine ending) has blocked since, and only the clock can wake it.
// Without the second look each of Eventually's ticks waited its interval
// of real time (5 s of 10 ms ticks: 2.6 s).
//
//go:norace
func (s *sched) waitOutsideUntilVirtual(d time.Duration, untilVirtual bool) bool {
	s.choices++ // what comes from outside control comes when the OS has it
	start := monoNow()
	if s.waitingOutside() {
		defer s.realTimePassed(start)
	}
	pause := 20 * time.Microsecond
	for first := true; ; first = false {
		if s.reclaim() || s.joinReady() {
			return true
		}
		left := d - time.Since(start)
		if left <= 0 {
			return false
		}
		// A stack dump a look: only while the pause is short.
		if untilVirtual && !first && pause < virtualLookPause && s.virtualWait() {
			virtualLooks++
			return false
		}
		if pause > left {
			pause = left
		}
		nap(pause)
		if pause < 2*time.Millisecond {
			pause *= 2
		}
	}
}

// virtualLookPause bounds waitOutsideUntilVirtual's second looks: at most
// six stack dumps, in the first 2.6 ms of a wait.
const virtualLookPause = 2 * time.Millisecond

// virtualLooks counts the waits a second look at virtualWait ended, for
// tests.
var virtualLooks int

// outsideSlice is how long a released goroutine may take to come back
// before it is checked for blocking outside control; outsideWait is the
// longest the clock waits for such goroutines before it moves on.
const (
	outsideFirst = 50 * time.Microsecond
	outsideSlice = 5 * time.Millisecond
	outsideWait  = time.Second
)

// foreignOutside: is a goroutine outside control for a reason of its own
// (not one blockForReal released)?
//
//go:norace
func (s *sched) foreignOutside() bool {
	for _, g := range s.outside {
		if !g.blockedReal {
			return true
		}
	}
	return false
}

// realBlocked: is a goroutine blocked for real (blockForReal)?
//
//go:norace
func (s *sched) realBlocked() bool {
	for _, g := range s.outside {
		if g.blockedReal {
			return true
		}
	}
	return false
}

// lockState: is a goroutine in this state of a stack dump waiting for a
// lock or a WaitGroup of code that is not rewritten?
func lockState(state []byte) bool {
	return bytes.HasPrefix(state, []byte("sync.")) || bytes.HasPrefix(state, []byte("semacquire"))
}

// waitingOutside: is a goroutine outside control, for a reason of its own,
// waiting for something other than a lock (real I/O, a real timer,
// testify's Eventually ticking on the real clock), not for the program's
// own goroutines (an in-process pipe: pipeWait) nor for a connection
// (acceptWait)?
//
//go:norace
func (s *sched) waitingOutside() bool {
	for _, g := range s.outside {
		if g.inWait && !g.blockedReal && !g.inPipe && !g.inAccept {
			return true
		}
	}
	return false
}

// holdOutside: is a goroutine outside control, for a reason of its own, in
// a lock of code that is not rewritten (the logger's, while another writes
// a line to a slow pipe)?
//
//go:norace
func (s *sched) holdOutside() bool {
	for _, g := range s.outside {
		if g.inHold && !g.blockedReal {
			return true
		}
	}
	return false
}

// virtualWait: are the goroutines outside control all blocked on channel
// operations of code whose time operations run on the virtual clock (a
// dependency's mock clock: its Sleep receives on a channel its Add feeds)
// or of an in-process pipe (pipeWait), with nothing in the process
// running, in real I/O or in a real sleep?
// Then only the program can wake them, and the clock need not wait real
// time for them before it moves (1 ms of a mock clock's nap per tick made
// a 30-second test of a rate limiter take 15 s). Goroutines waiting in the
// standard library or a kept test framework (testify's Eventually, goleak)
// may wait for a real timer: the clock waits for them as before.
//
//go:norace
func (s *sched) virtualWait() bool {
	if !s.outsideAll(func(g *gstate) bool { return g.inVirtual || g.inPipe }) {
		return false
	}
	dump := dumpBuf[:runtime.Stack(dumpBuf, true)]
	for len(dump) > 0 {
		var block []byte
		block, dump = cutBlock(dump)
		id, state, ok := blockHeader(block)
		if !ok || id == s.sgid {
			continue
		}
		if g := s.tab.lookup(id); g != nil && g.parked && !g.outside {
			continue // at its turn's wait (spinning in it is no activity)
		}
		switch string(state) {
		case "running", "runnable", "preempted", "IO wait", "sleep":
			return false
		case "syscall":
			if !rtFutexStack(block) {
				return false
			}
		}
	}
	return true
}

// chanWaitState: is a goroutine in this state of a stack dump blocked on a
// channel operation or a select?
func chanWaitState(state []byte) bool {
	return bytes.HasPrefix(state, []byte("chan ")) || bytes.HasPrefix(state, []byte("select"))
}

// virtualClockBlock: is the goroutine whose part of a stack dump starts
// block blocked in a function of code whose time operations the rewriter
// puts on the virtual clock: not the standard library (its first path
// element has no dot), nor a module in RealClockModules?
func virtualClockBlock(block []byte) bool {
	line := firstFrame(block)
	if line == nil {
		return false
	}
	fn := line
	if j := bytes.LastIndexByte(fn, '('); j > 0 {
		fn = fn[:j]
	}
	return virtualClockFunc(fn)
}

// firstFrame returns the function line of the first frame outside the
// runtime in block, a goroutine's part of a stack dump, or nil.
func firstFrame(block []byte) []byte {
	for len(block) > 0 {
		line := block
		if j := bytes.IndexByte(block, '\n'); j >= 0 {
			line, block = block[:j], block[j+1:]
		} else {
			block = nil
		}
		if len(line) == 0 || line[0] == '\t' || bytes.HasPrefix(line, []byte("goroutine ")) || bytes.HasPrefix(line, []byte("runtime.")) {
			continue
		}
		return line
	}
	return nil
}

// virtualClockFunc: does the function (as a stack dump names it) belong
// to code whose time operations run on the virtual clock?
func virtualClockFunc(fn []byte) bool {
	// The package path ends at the first dot after the last slash.
	pkg := fn
	j := bytes.LastIndexByte(pkg, '/')
	if j < 0 {
		j = 0
	}
	if k := bytes.IndexByte(pkg[j:], '.'); k >= 0 {
		pkg = pkg[:j+k]
	}
	first, _, _ := bytes.Cut(pkg, []byte("/"))
	if bytes.IndexByte(first, '.') < 0 {
		return false // the standard library (or package main)
	}
	for _, m := range RealClockModules {
		if string(pkg) == m || len(pkg) > len(m) && string(pkg[:len(m)]) == m && pkg[len(m)] == '/' {
			return false
		}
	}
	return true
}

// RealClockModules are the modules whose code the rewriter leaves as
// written, time operations included (rewrite's kept modules): code there
// may wait for a real timer. (testify's time operations are rewritten:
// its Eventually ticks on the virtual clock, as under testing/synctest.)
var RealClockModules = []string{
	"go.uber.org/goleak",
	"gotest.tools",
	"github.com/onsi/ginkgo",
	"github.com/onsi/gomega",
	"github.com/interleave-dev/interleave",
}

// ioOutside: is a goroutine outside control in real I/O?
//
//go:norace
func (s *sched) ioOutside() bool {
	for _, g := range s.outside {
		if g.inIO {
			return true
		}
	}
	return false
}

// abandon ends the schedule without the goroutines outside control when
// every one of them is blocked there (a connection's read loop in real
// I/O after the test returned, or while the schedule unwinds; after the
// test returned, also one blocked for real on a channel that one of them
// may send on: a collector of that loop's events): as under
// go test, they stay behind, and the driver goes on in a fresh process
// (see leftovers). It reports whether it did.
//
//go:norace
func (s *sched) abandon() bool {
	for _, g := range s.outside {
		// One blocked for real on a channel whose partner is outside
		// control is left with it once the test returned: nothing
		// controlled is left to free it.
		if g.blockedReal && !s.testDone || !s.blockedOutside(g) {
			return false
		}
	}
	for _, g := range s.outside {
		if g.id == 0 {
			s.lostTest = true
		}
		g.outside = false
		g.exited = true
		s.live--
		s.tab = s.tab.with(g.gid, nil)
	}
	s.outside = s.outside[:0]
	return true
}

// abandonWait is how long goroutines blocked outside control get to come
// back before a schedule whose outcome is decided ends without them.
const abandonWait = 200 * time.Millisecond

// leftForGood: once nothing else can happen, are the goroutines outside
// control blocked for good? Each must wait in a function of the standard
// library that only another goroutine's call ends (partnerOnly: no timer,
// no I/O), and nothing else in the process may run, sleep, do I/O or a
// system call: the controlled goroutines are blocked or gone and no timer
// is pending (the caller's state), so nobody is left to make that call. A
// writer stranded in an io.Pipe whose reader stopped without closing it
// is a leak, not a read loop on a connection the test left open.
//
//go:norace
func (s *sched) leftForGood() bool {
	if len(s.outside) == 0 {
		return false
	}
	for _, g := range s.outside {
		if g.blockedReal {
			return false
		}
	}
	found := 0
	dump := dumpBuf[:runtime.Stack(dumpBuf, true)]
	for len(dump) > 0 {
		var block []byte
		block, dump = cutBlock(dump)
		id, state, ok := blockHeader(block)
		if !ok || id == s.sgid || s.exitedG(id) {
			continue
		}
		g := s.tab.lookup(id)
		switch {
		case g != nil && g.outside:
			if !chanWaitState(state) || !partnerOnly(block) {
				return false
			}
			found++
			continue
		case g != nil && g.parked:
			continue // at its turn's wait: blocked by the shadow's account
		}
		switch string(state) {
		case "running", "runnable", "preempted", "IO wait", "sleep":
			return false
		case "syscall":
			if !rtFutexStack(block) && !bytes.Contains(block, []byte("signal_recv")) {
				return false
			}
		}
	}
	return found == len(s.outside)
}

// pipeFuncs are functions of the standard library that wait on channels
// only the program's own goroutines feed: a net.Pipe's and an io.Pipe's
// read and write (a net.Pipe's deadline is a real timer of its own). A
// goroutine blocked there does not wait on the outside world: the clock
// neither keeps pace with real time for it (keepPace) nor waits real time
// for it while it is blocked and nothing else runs (virtualWait).
var pipeFuncs = append(partnerOnlyFuncs[:len(partnerOnlyFuncs):len(partnerOnlyFuncs)],
	[]byte("net.(*pipe).read("), []byte("net.(*pipe).write("))

// pipeWait: is the goroutine whose part of a stack dump is block waiting
// in one of pipeFuncs (its first frame outside the runtime)?
func pipeWait(block []byte) bool { return waitsIn(block, pipeFuncs) }

// acceptWait: is the goroutine whose part of a stack dump is block, in
// real I/O, waiting in a listener's Accept? It waits for a client to dial,
// not for work under way outside control (a server's accept loop while
// the test polls it for readiness): the clock does not keep pace with
// real time for it.
func acceptWait(block []byte) bool {
	if j := bytes.Index(block, []byte("\n\n")); j >= 0 {
		block = block[:j]
	}
	return bytes.Contains(block, netAccept)
}

// netAccept begins the frame of a listener's Accept waiting in the poller.
var netAccept = []byte("\nnet.(*netFD).accept(")

// pipesOnly: are the goroutines outside control, for reasons of their
// own, all in in-process pipes (pipeWait)? What they wait for is the
// program's own work, not the outside world's: the clock gives them up to
// outsideWait of real time before it jumps past a nearer deadline.
//
//go:norace
func (s *sched) pipesOnly() bool {
	return s.outsideAll(func(g *gstate) bool { return g.inPipe })
}

// outsideAll: is there a goroutine outside control for a reason of its own
// (not blocked for real on a channel op), and does every such one satisfy
// ok?
//
//go:norace
func (s *sched) outsideAll(ok func(g *gstate) bool) bool {
	some := false
	for _, g := range s.outside {
		if g.blockedReal {
			continue
		}
		if !ok(g) {
			return false
		}
		some = true
	}
	return some
}

// partnerOnlyFuncs are functions of the standard library whose wait only
// another goroutine's call ends: an io.Pipe's read and write (its other
// end's Read, Write or Close), with no timer and no I/O.
var partnerOnlyFuncs = [][]byte{[]byte("io.(*pipe).read("), []byte("io.(*pipe).write(")}

// partnerOnly: is the goroutine whose part of a stack dump is block
// waiting in one of partnerOnlyFuncs (its first frame outside the runtime)?
func partnerOnly(block []byte) bool { return waitsIn(block, partnerOnlyFuncs) }

// waitsIn: is the first frame outside the runtime of the goroutine whose
// part of a stack dump is block in one of fns?
func waitsIn(block []byte, fns [][]byte) bool {
	line := firstFrame(block)
	for _, fn := range fns {
		if bytes.HasPrefix(line, fn) {
			return true
		}
	}
	return false
}

// awaitRecorded: in a replay, the goroutine the next recorded decision
// names may be outside control and running, woken (a timer fired into a
// channel it waits on for real, in a dependency whose select is not
// rewritten) but not back yet, while the recording saw it back: how soon
// woken goroutines come back is timing. The replay waits for it, as long
// as it runs, up to the step limit (longer while the process is starved:
// starvedMore), rather than diverge. It reports
// whether a goroutine came back (the caller decides again).
//
//go:norace
func (s *sched) awaitRecorded() bool {
	if s.replay == nil || s.diverged != "" || s.steps >= len(s.replay.Decisions) {
		return false
	}
	id := s.replay.Decisions[s.steps].G
	if id < 0 || id >= len(s.gs) {
		return false
	}
	g := s.gs[id]
	if !g.outside || g.blockedReal {
		return false
	}
	return s.awaitBack(g, true)
}

// awaitRecordedBack: in a replay, the goroutine the next recorded decision
// names is outside control, blocked there (real I/O: a response on its
// way from a goroutine outside control), while others could run: the
// recording saw it back before this decision, and none of the scheduler's
// moves left before it (the clock's moves come earlier in next) can bring
// it back. The replay waits for it as awaitRecorded does, blocked or not,
// rather than diverge. It reports whether a goroutine came back.
//
//go:norace
func (s *sched) awaitRecordedBack(cands []*gstate) bool {
	if s.replay == nil || s.diverged != "" || s.steps >= len(s.replay.Decisions) {
		return false
	}
	id := s.replay.Decisions[s.steps].G
	if id < 0 || id >= len(s.gs) || s.replay.Decisions[s.steps].Op == opJoinName {
		return false
	}
	g := s.gs[id]
	if !g.outside || g.blockedReal {
		return false
	}
	for _, c := range cands {
		if c == g {
			return false
		}
	}
	return s.awaitBack(g, false)
}

// awaitRecordedClock: in a replay whose next recorded decision has the
// clock (Decision.Clock) at the next deadline or before, the recording
// made it before that timer fired (a firing moves the clock past it,
// wakeLate): when the goroutine it names is outside control
// (a response on its way, slower in this run), the replay waits for it
// rather than fire the timer and diverge. So too when the decision has no
// clock and that goroutine waits on the outside world (its response came
// back before real time moved the recording's clock): while one is out
// there, real time moves the clock toward the deadline before a timer
// fires (outsideTick at each decision, waitOutside before an idle
// firing), and that leaves a clock on the next decision. It reports
// whether a goroutine came back.
//
//go:norace
func (s *sched) awaitRecordedClock() bool {
	if s.replay == nil || s.diverged != "" || s.steps >= len(s.replay.Decisions) {
		return false
	}
	d := s.replay.Decisions[s.steps]
	next, ok := s.nextDeadline()
	if !ok || time.Duration(d.Clock) > next || d.G < 0 || d.G >= len(s.gs) {
		return false
	}
	g := s.gs[d.G]
	if !g.outside || g.blockedReal {
		return false
	}
	if d.Clock == 0 && !outsideWorld(g) {
		return false
	}
	return s.awaitBack(g, false)
}

// awaitBack naps until a goroutine outside control comes back (reclaim),
// for the step limit, longer while the process is starved (stretchedWait).
// With blocked, it gives up once g is found blocked outside control (by a
// stack dump, every few naps: it costs): only the scheduler's next move
// can wake it then.
//
//go:norace
func (s *sched) awaitBack(g *gstate, blocked bool) bool {
	w := s.stretchedWait()
	pause := 20 * time.Microsecond
	for look := 0; ; look++ {
		if s.reclaim() {
			return true
		}
		if blocked && look%8 == 0 && s.blockedOutside(g) {
			return false
		}
		if w.over(s) {
			return false
		}
		nap(pause)
		if pause < time.Millisecond {
			pause *= 2
		}
	}
}

// replayDoneAt is the index of the replayed schedule's Decision.Done, -1
// when it has none (the test had not returned by its last decision, or
// it predates the field).
//
//go:norace
func (s *sched) replayDoneAt() int {
	if s.replayDone == -2 {
		s.replayDone = -1
		for i, d := range s.replay.Decisions {
			if d.Done {
				s.replayDone = i
				break
			}
		}
	}
	return s.replayDone
}

// replayBeforeDone: is a replay, following its schedule, before the
// decision at which the recording saw the test's goroutine end? Its own
// exit, come back sooner from code outside control, does not start the
// steps counted after the test (postSteps) until there.
//
//go:norace
func (s *sched) replayBeforeDone() bool {
	if s.replay == nil || s.diverged != "" || s.steps >= len(s.replay.Decisions) {
		return false
	}
	at := s.replayDoneAt()
	return at >= 0 && s.steps < at
}

// awaitRecordedDone: a replay at the decision where the recording had
// seen the test's goroutine end, which has not yet come back from code
// outside control (testing's, after a Fatal), waits for it as
// awaitRecordedBack does, rather than decide for the others meanwhile
// and count the steps after the test from later than the recording. It
// reports whether a goroutine came back.
//
//go:norace
func (s *sched) awaitRecordedDone() bool {
	if s.testDone || s.replay == nil || s.diverged != "" || s.steps >= len(s.replay.Decisions) || s.replayDoneAt() != s.steps || len(s.gs) == 0 {
		return false
	}
	g := s.gs[0]
	if !g.outside || g.exited {
		return false
	}
	return s.awaitBack(g, false)
}

// fireRecordedDue: in a replay, the goroutine the next recorded decision
// names is not among those that can run, and a timer is due before the
// clock that decision carries (replayClock moved it there): its recording
// fired the timer first (its clock never passes a pending deadline), when
// nothing could run, the others still outside control. A goroutine back
// from there sooner in this run (a loaded machine's replay takes longer
// in real time, a faster server) must not keep it from firing, as it did:
// the replay fires it, as idle as the recording. It reports whether it
// fired.
//
//go:norace
func (s *sched) fireRecordedDue(cands []*gstate) bool {
	if s.replay == nil || s.diverged != "" || s.steps >= len(s.replay.Decisions) {
		return false
	}
	d := s.replay.Decisions[s.steps]
	next, ok := s.nextDeadline()
	if d.Clock == 0 || !ok || next >= time.Duration(d.Clock) || d.G < 0 || d.G >= len(s.gs) {
		return false
	}
	g := s.gs[d.G]
	for _, c := range cands {
		if c == g {
			return false
		}
	}
	// Idle, the recording had released the blocked receives to wait for
	// real (blockForReal) before the timer fired: the firing wakes them
	// out there, and they come back at their next point, with no decision
	// of their receive's.
	s.blockForReal()
	s.aheadIdle = true
	fired := s.fireTimers()
	s.aheadIdle = false
	if fired && g.outside {
		s.awaitBack(g, false)
	}
	return fired
}
