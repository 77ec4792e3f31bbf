// A controlled goroutine: its state and its side of a scheduling point.

package rt

import (
	"reflect"
	"runtime"
	"testing"
	"time"
)

type gstate struct {
	id        int
	goPC      uintptr       // the return address in the function whose go statement started it (0: none)
	goWrapper bool          // started by GoCall: its first frame is the rewriter's closure around the go statement's call
	objs      []uintptr     // the channels of its pending select, for its Candidate
	frames    []string      // its Candidate's caller sites (callerSites), reused
	objArr    [4]uintptr    // objs' first room
	parkAt    time.Duration // the virtual time it parked at its pending operation
	waitAt    time.Duration // parkAt as its channels' waits counted it (countWaits)
	// waitCh is the state of the channel its blocked send or receive
	// waits at (countWaits), so that enabled needs no lookup.
	waitCh *chanState
	// soloLeft counts the atomic operations it may still run without a
	// scheduling point (solo.go); zeroed at every point it reaches.
	soloLeft int32
	// soloDec is the index of the decision that granted g its solo run.
	soloDec int
	// nearTargets: per call site met on a solo run, whether it is at or
	// near one of Config.Targets (soloAtTarget); its own, read by no other.
	nearTargets map[uintptr]bool
	// settled: parked when a synctest.Wait returned, so in its operation
	// for real, not on its way there (lateOnly).
	settled bool
	parkSeq uint64 // when it was last released, in the unperturbed order (sched.arrivals)
	// realOp and realAt identify the operation it was sent to block on for
	// real (wasReal): back at it, it keeps its place in the queue.
	realOp  opKind
	realAt  uint64
	wasReal bool
	// held: the second party of a hand-off, released to complete the
	// channel operation but stopped after it (gated) until collect
	// wakes it again, once those before it in sched.running arrived.
	held   bool
	gated  bool
	gid    uint64
	runSeq uint32
	arrSeq uint32
	sema   uint32 // runSeq's semaphore (sema.go)
	// written by the goroutine itself
	runSeen uint32
	req     request
	nows    int // Now calls since the last scheduling point
	// ids counts its findings by goid since its last scheduling point;
	// tid is the thread it is locked to (identified), 0 when none.
	ids int32
	tid int32
	// cand is req as the strategy sees it, made once per scheduling
	// point (candidate): a goroutine stays parked over many decisions.
	cand   Candidate
	candOK bool
	stack  string
	sub    *subtestRun // the top-level subtest it runs in (nil: none)
	// clockOp and clockSite: the operation it waited at when the clock
	// last had to move after the test returned (noteClockWaits).
	clockOp, clockSite string
	// inDaemonOnce counts the package-level Once.Do calls whose function
	// it runs now (OnceDoPackage), written by the goroutine itself.
	inDaemonOnce int
	// daemon: started while its parent ran a package-level Once's
	// function, or by a daemon: at most one per process by design (a
	// clock cache, a global worker), never a leak of the test.
	daemon bool
	// daemonEnds: the channel ends a daemon waited at in this schedule
	// (noteDaemonEnds).
	daemonEnds []chanEnd
	// bubble is the synctest bubble it belongs to (sched.bubbles; 0:
	// none): the test's goroutine while SynctestTest runs f, and every
	// goroutine a member starts.
	bubble int
	// exit information
	panicked   bool
	panicVal   string
	panicStack string
	panicSite  string
	// os.Exit's code, site and stack, for S (exitUnderControl)
	exitCode  int
	exitSite  string
	exitStack string
	// select pick state (goroutine-local)
	pickAdapter bool
	pickPolled  bool
	pickVal     reflect.Value
	pickOK      bool
	forward     chan struct{} // closed when the last select send's forwarder is done
	// the test whose goroutine this is (a schedule's test, a subtest) and
	// the cleanups registered for it under control
	tb       testing.TB
	cleanups []func()
	// t.Parallel, written through //go:norace helpers (parallel.go)
	mayParallel bool          // its t.Run was called with its parent's own T
	barrier     chan struct{} // closed when its test function returned
	paused      chan struct{} // closed when it called t.Parallel
	finished    chan struct{} // closed when a parallel subtest ended
	kids        []*gstate     // its subtests that called t.Parallel
	// written by S
	rep       reply
	arrSeen   uint32
	parked    bool
	exited    bool
	outside   bool // released, blocked outside control (see collect)
	inIO      bool // found so in real I/O (a network read, a pipe of the OS)
	inWait    bool // found so waiting for something other than a lock or a system call (a real timer, a channel)
	inHold    bool // found so in a lock of code not rewritten
	inVirtual bool // found so on a channel in code whose time is virtual (virtualWait)
	inPipe    bool // found so in an in-process pipe of the standard library (pipeWait)
	inAccept  bool // found so in real I/O waiting for a connection (acceptWait)
	// wentOutside: it was found blocked outside control before, on a
	// channel of code whose time is virtual; await looks sooner (a stack
	// dump per release: only for these)
	wentOutside bool
	outsideAt   time.Time // when it was found so
	// drainedAt is the call stack of its last select when that took a
	// receive from a closed, empty channel (the unperturbed schedule's
	// rotation: unstarve), and drainedCase the case; drained says there is
	// one
	drainedAt   [len(request{}.pcs)]uintptr
	drainedCase int
	drained     bool
	// blockedReal: released to block for real on its channel operation
	// (mBlock) while a party outside control may be its partner; recall
	// takes it back.
	blockedReal bool
	recall      chan struct{}
	wakeAt      time.Duration
	signal      bool
	// commit: 1 + the case of its blocked select that an operation
	// completed with (commit.go); 0: none.
	commit int
	// wgReleased: blocked in WaitGroup.Wait when the count reached
	// zero; released for good, as the runtime's waiters are, whatever
	// Adds come before it runs.
	wgReleased bool
	// cbOf: the timer whose firing started it (an AfterFunc's callback),
	// while it has done nothing but start, arm, stop or reset timers
	// (idleOp); nil once it did anything else, or for other goroutines.
	cbOf   *vtimer
	parent *gstate // the goroutine whose t.Run started this subtest
	// shadow of t.Parallel, written by S: parallel after the subtest
	// called it; fnDone after the test's function returned; pending
	// counts the parallel subtests still running.
	parallel bool
	fnDone   bool
	pending  int
	dumped   bool
	// lastPick is the step at which it was last chosen (fair picks).
	lastPick int
	// spinMarks hold hashes of its stack below rt's frames (arguments
	// included) at the spin samples of spin epoch spinMarkEpoch at which
	// it was parked at a spinning operation, having run since the sample
	// before (at step spinMarkStep): a polling loop comes back to one of
	// them, a goroutine at work does not (sampleSpinners).
	spinMarks     [spinMarkMax]uint64
	spinMarkN     int
	spinMarkEpoch int
	spinMarkStep  int
	// passed counts the decisions in a row, up to passAt, at which it
	// could run and another ran (delayed). passedSince is the clock at the
	// first decision since it last ran, and since a moment when no
	// goroutine could run (passedIdle, sched.idleSeq then), at which it
	// could run and another ran (passedOver: there is one), whether it
	// could run at every decision since or not (a lock others keep taking).
	passed      int
	passAt      int
	passedSince time.Duration
	passedIdle  int
	passedOver  bool
	// lazyAt, when lazy, is the decision at which passed and passAt were
	// last set: it has been ready and passed over at every decision
	// since (passCount). inFresh: it is in sched.freshReady.
	lazyAt  int
	lazy    bool
	inFresh bool
	check   struct{ passed, passAt int } // checkPassCounts
	// set is the set of parked goroutines it is in (see park), at setIdx.
	set    uint8
	setIdx int32
}

// active is the running schedule (nil when none). Written by the goroutine
// that starts and ends schedules, read by anyone in //go:norace code.
var active *sched

// setActive starts (s) or ends (nil) a schedule; the program's real
// tickers tick on its virtual clock too meanwhile (realclock.go).
//
//go:norace
func setActive(s *sched) {
	if s != nil {
		startRealTicks(s)
		dropOutsideSignals()
	}
	active = s
}

// current returns the calling goroutine's state when it is controlled by the
// running schedule.
//
//go:norace
func current() *gstate {
	s := active
	if s == nil {
		return nil
	}
	t := s.tab
	if t == nil {
		return nil
	}
	if g := s.lockedG; g != nil {
		// The goroutine locked to its thread (identified): a caller on
		// that thread is it. The thread is read first: g.tid is 0 again
		// before g unlocks, so a goroutine the thread runs afterwards
		// never matches.
		if tid := gettid(); tid != 0 && tid == g.tid {
			return g
		}
	}
	g := t.lookup(goid())
	if g != nil {
		g.identified(s)
	} else {
		sawForeign(s)
		// A goroutine outside control (one that code which is not
		// rewritten started) calls into the program while a schedule
		// runs: it yields the processor here, so that polling in a loop
		// it cannot starve the controlled goroutines, whose hand-offs
		// each need a processor.
		runtime.Gosched()
	}
	return g
}

// hotIDs is how many times in a row a goroutine is found by goid reading
// the stack (stackGoid, about 1 µs a frame) without reaching a scheduling
// point before it is locked to its thread (identified): a loop drawing
// random numbers or reading the clock (go-retry's jitter, 100,000 draws)
// then finds it by its thread's id, one system call.
const hotIDs = 64

// identified counts a finding of g (the caller) by goid; at hotIDs, with
// no other goroutine locked, it locks g to its thread (LockOSThread: no
// other goroutine runs on that thread until g unlocks), so that current
// knows it by the thread's id, until g's next scheduling point or its end
// (unlockThread). Only where goid reads the stack: a load from runtime.g
// (goidOffset) costs a few nanoseconds, the thread's id a system call at
// every call (1.5 µs of CPU a draw, BenchmarkRandDraw). Not where the
// thread's id is unknown (gettid 0). The lock is the runtime's external
// count, which the program's own runtime.UnlockOSThread also drops: a
// program that unlocks a thread it never locked, in a hot loop, on a
// runtime that reads the stack, lets g move while current still knows it
// by the thread.
//
//go:norace
func (g *gstate) identified(s *sched) {
	if g.ids++; g.ids < hotIDs || goidOffset >= 0 || g.tid != 0 || s.lockedG != nil || gettid() == 0 {
		return
	}
	runtime.LockOSThread()
	g.tid = gettid()
	s.lockedG = g
}

// unlockThread undoes identified, on g's own goroutine (a scheduling
// point, its end): the thread runs other goroutines again, so g.tid is
// cleared before it is unlocked. Called from another goroutine (a
// schedule's end) it only forgets the lock.
//
//go:norace
func (g *gstate) unlockThread() {
	g.ids = 0
	tid := g.tid
	if tid == 0 {
		return
	}
	g.tid = 0
	if s := active; s != nil && s.lockedG == g {
		s.lockedG = nil
	}
	if gettid() == tid {
		runtime.UnlockOSThread()
	}
}

// sawForeign notes that a goroutine outside control ran the program's
// code in this schedule (sched.foreignSeen).
//
//go:norace
func sawForeign(s *sched) { s.foreignSeen = true }

// call is a scheduling point: publish req, wait for the scheduler's reply.
//
//go:norace
func (g *gstate) call(r *request) reply {
	g.unlockThread()
	if selfAlloc {
		if _, plain := active.strat.(Plain); !plain {
			selfAllocSink = make([]byte, 64)
		}
	}
	g.joinForward()
	g.pass()
	if g.soloLeft > 0 && soloOp(r.op) {
		if !g.soloAtTarget() {
			g.soloLeft--
			return reply{mode: mRun}
		}
		g.soloCut()
	}
	g.soloLeft = 0
	g.req = *r
	g.candOK = false
	g.req.readNow = g.nows > 0
	g.nows = 0
	runtime.Callers(2, g.req.pcs[:])
	if s := active; s != nil && s.bubble > 0 {
		bubbleRelease()
	}
	for {
		bump(&g.arrSeq)
		seen := g.runSeen
		g.runSeen = g.waitTurn(seen)
		rep := g.rep
		switch rep.mode {
		case mDump:
			g.stack = stackOf()
			continue
		case mAbort:
			panic(errAbort)
		}
		// The gate opens with a wake of its own (collect). When the
		// goroutine was slow to see its release (its partner was found
		// blocked outside control meanwhile, on a loaded machine), both
		// wakes came before it looked: the gate is open already, and
		// waiting for it would wait forever.
		g.gated = rep.gate && g.runSeen-seen == 1
		return rep
	}
}

// pass is where the second party of a hand-off waits, its channel
// operation done, until the scheduler lets it go on (gstate.held).
//
//go:norace
func (g *gstate) pass() {
	if g.gated {
		g.gated = false
		g.runSeen = g.waitTurn(g.runSeen)
	}
}

// arriveExit announces the end of the goroutine; it does not wait.
//
//go:norace
func (g *gstate) arriveExit() {
	g.req = request{op: opExit}
	bump(&g.arrSeq)
}

type abortSignal struct{}

func (abortSignal) Error() string { return "interleave: schedule aborted" }

var errAbort any = abortSignal{}

func stackOf() string {
	buf := make([]byte, 64<<10)
	n := runtime.Stack(buf, false)
	return string(buf[:n])
}
