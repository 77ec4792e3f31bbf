// The scheduling loop: S waits for the goroutines it released, then decides again.

package rt

import (
	"math/rand"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"time"
	"unsafe"
)

// The scheduler runs on a goroutine of its own (S). A controlled goroutine
// at a scheduling point writes its request into its gstate, bumps arrSeq and
// sleeps on runSeq; S waits for the goroutines it released to arrive, picks
// the next one, writes its reply and bumps its runSeq. Only these two words
// and the request/reply fields cross goroutines, always in //go:norace code
// and through the runtime's semaphores (sema.go), so the race detector sees no edge between
// controlled goroutines that the program did not create itself. Everything
// else belongs to S. S never uses sync, fmt or sync.Pool while a schedule
// runs (they would let S carry one goroutine's vector clock to another).

type sched struct {
	cfg      Config
	subOnly  string        // the one top-level subtest to run (Config.Test)
	subs     []*subtestRun // the top-level subtests started
	strat    Strategy
	replay   *Schedule
	diverged string
	index    int
	seed     int64
	maxSteps int
	timeout  time.Duration
	// resyncRec and resyncSeen: the recorded choices of each goroutine's
	// selects at each site, and how many it made there (Schedule.Resync).
	resyncRec  map[resyncKey][]int
	resyncSeen map[resyncKey]int
	// noticing is the channel closed outside control whose blocked
	// selects noticeRealCloses commits: chanReadyIn answers for it as
	// before the close.
	noticing unsafe.Pointer

	tab     *gtable
	gs      []*gstate
	running []*gstate
	outside []*gstate // released goroutines blocked outside control
	sgid    uint64    // the scheduler goroutine's runtime id
	live    int
	last    int
	// arrivals counts releases of goroutines (gstate.parkSeq).
	arrivals uint64
	// backs counts the goroutines taken back from outside control (reclaim).
	backs uint64

	objs      shadowMap[int] // Decision.Obj numbers
	objN      int            // the last of them
	mutexes   shadowMap[*mutexState]
	rws       shadowMap[*rwState]
	wgs       shadowMap[*int]
	onces     shadowMap[*onceState]
	conds     shadowMap[*condState]
	chans     shadowMap[*chanState]
	timers    map[*time.Timer]*vtimer
	tickers   map[*time.Ticker]*vtimer
	tq        []*vtimer
	skipped   []*vtimer // tickers whose unread ticks were dropped (resumeTickers)
	tseq      int
	now       time.Duration
	base      time.Time
	idleFires int
	// earlyDue: the clock moved early for the next decision (earlyTime);
	// earlyFires counts such moves in this schedule; earlyLate: after one,
	// the test failed after it returned (Late panicked).
	earlyDue   bool
	earlyFires int
	earlyLate  bool
	// overlapFires counts the early moves that fired only AfterFuncs
	// beside their running callbacks (overlapping), which are not early
	// moves to driver.go; firedOther: fireTimersTo fired something else.
	overlapFires int
	firedOther   bool
	// firedCbs: the callbacks fireTimersTo started; overlapGs: those of
	// the last overlapping move, which run first while they can.
	firedCbs  []*gstate
	overlapGs []*gstate
	// held: the goroutines a delayed jump went past (timers.go, delayed),
	// which stay delayed for heldLeft more decisions while others can run.
	held     []*gstate
	heldLeft int
	// farFires counts the early moves further than earlyMax (farNow,
	// drawn once: farDrawn); after one only a data race counts.
	farFires int
	farDrawn bool
	// earlyHang: after one, nothing could run for longer than earlyMax
	// (the clock jumped that far with every goroutine blocked): a hang
	// a long timeout ended, not a timeout that came too soon.
	// earlyHangTest: so before the test returned (what its leftovers
	// wait for after, a ticker's tick, says nothing of its failure).
	earlyHang     bool
	earlyHangTest bool
	// staleRead: a timer's value sent before its last Reset was read
	// (staleRecv): a failure after an early move that shows it is the
	// code's (a Reset without a drain), not a timeout that came too soon.
	// staleTimers: the timers holding such a value.
	staleRead   bool
	staleTimers []*vtimer
	// doneMarked: a decision carries Decision.Done; replayDone is the
	// index of the replayed schedule's (-1: none; -2: not looked up).
	doneMarked bool
	replayDone int
	// unordered: ranges that kept the runtime's order (maprange.go).
	unordered    UnorderedRange
	unorderedPCs [8]uintptr
	// idleSeq counts the decisions at which no goroutine could run.
	idleSeq int
	// The pass counts of the ready set (countPassed): freshReady holds the
	// ready goroutines whose counts are kept one by one (gstate.inFresh),
	// every other ready one counts lazily (gstate.lazyAt). passFrom is the
	// first step of the current run of counted decisions at consecutive
	// steps, passLast its last. passSinceMin is the earliest passedSince
	// set while idleSeq was passSinceSeq.
	freshReady   []*gstate
	passFrom     int
	passLast     int
	passSinceMin time.Duration
	passSinceSeq int
	// allocs: the counts of allocations the program read (allocs.go).
	allocs allocCounts
	// dumps counts the program's dumps of every goroutine (Stack).
	dumps atomic.Int32
	// targets indexes Config.Targets for solo runs (soloAtTarget); nil
	// when none.
	targets targetIndex
	// soloNext: the decision being made lets its goroutine run its next
	// atomic operations without a point (soloGrant).
	soloNext bool
	// foreignSeen: a goroutine outside control called into the program
	// in this schedule (current); its work may be what the jump skipped.
	foreignSeen bool
	// lockedG is the goroutine locked to its thread, which current
	// knows by the thread's id (gstate.identified); nil when none.
	lockedG *gstate
	// choices counts the points where this schedule could have gone
	// another way (Result.Choices), draws those that were random draws
	// or map orders (Result.Draws).
	choices int
	draws   int
	// settled counts the AfterFunc timers fired after everything ended
	// (settleAfterFuncs).
	settled int
	// bubble: inside a synctest bubble (SynctestTest), where the clock
	// reaches deadlines exactly, not wakeLate past them, and a read does
	// not move it (NowTick).
	bubble int
	// bubbles numbers the bubbles the schedule entered (gstate.bubble);
	// bubbleEnded is set once one waited for its goroutines at its end
	// (bubbleEnd), noBubbleEnd in a replay of a schedule recorded without
	// that wait (Schedule.BubbleEnd).
	// goneDaemonAt is where a goroutine first came to a channel a daemon
	// an earlier schedule unwound served (noteDaemonEnds; "": none).
	goneDaemonAt string
	bubbleWaiter *gstate // the goroutine waiting at its bubble's end (bubbleEnd)
	bubbleEndAt  int     // the step its wait's bound counts from (park, bubbleProgress)
	bubbles      int
	bubbleEnded  bool
	noBubbleEnd  bool
	// nowTick is how far a read moves the clock: NowTick, or what the
	// replayed schedule was recorded with.
	nowTick time.Duration
	// The clock of a loop that works until a time has passed (stretch.go):
	// tickedNow is the clock after the last read's tick, tickRunFrom the
	// step since which reads alone moved it, stretch the tick a read adds
	// now (0: NowTick's), stretchReads the reads at it; stretched is set
	// once a read moved the clock by more than NowTick (stretchedBy: by
	// how much more, in all), stretchDue once such a read took it to a
	// timer's or a sleep's deadline.
	tickedNow    time.Duration
	tickRunFrom  int
	stretch      time.Duration
	stretchReads int
	stretched    bool
	stretchedBy  time.Duration
	stretchDue   bool // a stretched read took the clock to a deadline
	stretchFire  bool // and what is due there is yet to fire
	noStretch    bool // a replay of a schedule recorded without (Schedule.Stretch)

	sites    map[uintptr]string
	pcFrames map[uintptr][]callFrame // made by framesAt, for a failure's paths
	slabs    struct {
		mutexes slab[mutexState]
		rws     slab[rwState]
		wgs     slab[int]
		onces   slab[onceState]
		conds   slab[condState]
		chans   slab[chanState]
	}

	decisions chunkLog[Decision]
	decPCs    chunkLog[[10]uintptr] // the call stack of each decision (Site is resolved late)
	sited     int                   // decisions whose Site is resolved
	listBuf   []Candidate
	// The parked goroutines in three sets, kept as they park and leave
	// (park, unpark), so that a decision looks at the blocked ones only:
	// ready (an operation that cannot block: go, atomic, unlock...; or a
	// sleep whose time has come), with their candidates in readyList;
	// sleeping (a sleep until wakeAt, the earliest at minWake); blocked
	// (the rest, judged by enabled at every decision).
	ready      []*gstate
	readyList  []Candidate
	sleeping   []*gstate
	minWake    time.Duration
	blocked    []*gstate
	abortFrom  int       // no goroutine before it is parked (abortNext)
	busyBuf    []*gstate // reused by notSpinning
	partBuf    []*gstate // reused by partners
	commits    int       // blocked selects committed to a case (commit.go)
	steps      int
	postSteps  int
	postLive   int           // live goroutines when the current fair window began
	postWindow int           // its length in decisions (fairWindow)
	postAll    int           // decisions since the test returned
	doneAt     time.Duration // the virtual clock when the test returned
	fairRand   uint64        // state of fairChoice
	// spinRun counts the decisions in a row that only spun (see spinning).
	spinRun int
	// sameRun counts the spinning decisions since the last atomic load
	// of an address or value the spin run had not read yet (freshLoad):
	// a scan over a table is progress, a loop rereading the same words
	// with the same values is not. loads holds what the run read.
	sameRun int
	loads   map[loadKey]struct{}
	// spinClock is how far the clock moved for goroutines reading it in
	// a loop, since the last decision that did not spin or timer that
	// fired, while nothing else could happen (clockHang).
	spinClock time.Duration
	// spinEpoch counts the decisions that ended a spin run (progress:
	// anything but spinning, or a timer callback's idleOp); spinCount
	// counts spinning decisions, turned is spinCount at the last
	// spinTurn (one turn per run of spinAdvance of them).
	spinEpoch int
	spinCount int
	turned    int
	// sampledAt is spinCount at the last spin sample (sampleSpinners);
	// spinLoops says whether it found the spinners repeating themselves.
	sampledAt int
	spinLoops bool
	// quietN is the number of goroutines when paceForeign last found none
	// outside control active (-1: none such), quietSkips the looks it
	// skipped since.
	quietN     int
	quietSkips int
	// settleN and settleSkips are the same for settle.
	settleN     int
	settleSkips int
	// lostTest: abandon left the test's goroutine (g0) behind.
	lostTest bool
	nowStep  time.Duration // the clock's step for a loop reading it
	// spinNow: a goroutine read the clock since the last decision that
	// did not spin (Now is a scheduling point only every nowSpins calls).
	spinNow bool
	// wasIO: a goroutine came back from real I/O since the last decision
	wasIO bool
	// realMoved: real time moved the clock since the last decision
	// (Decision.Clock).
	realMoved bool
	// paceFrom, paceClock: the real time and the clock when a controlled
	// goroutine last began to wait on the outside world (zero: none
	// waits): see keepPace.
	paceFrom  time.Time
	paceClock time.Duration
	// pacedTo: keepPace fired timers up to it for the next decision
	// (Decision.Paced; 0: not so)
	pacedTo time.Duration
	// lastIO: the goroutine blockedOutside last found blocked was in I/O
	lastIO bool
	// lastWait, lastHold: ... waited for something other than a lock
	// (inWait), or for a lock (inHold)
	lastWait bool
	lastHold bool
	// lastVirtual: ... on a channel in code whose time is virtual
	lastVirtual bool
	// lastPipe: ... in an in-process pipe of the standard library
	lastPipe bool
	// lastAccept: ... in real I/O waiting for a connection
	lastAccept bool
	testDone   bool
	// idleGC: collect garbage when the clock next moves with no goroutine
	// able to run (timedCollect); lastGC is the virtual time of the last
	// collection, forcedGCs how many forceGCPeriod made.
	idleGC    bool
	lastGC    time.Duration
	forcedGCs int
	aborting  bool
	// abortSends: the channels goroutines waited to send on when the
	// schedule ended (abort); unwinding does not close them.
	abortSends []unsafe.Pointer
	// randState: the stream of math/rand draws under control (rand.go)
	randState uint64
	// randSeeded: math/rand's top-level stream after a rand.Seed that
	// took effect under control (MathRandSeed), else nil
	randSeeded rand.Source64
	// mapState: the stream of map orders under control (maprange.go)
	mapState  uint64
	fail      *failure
	waitingOn *gstate
	progress  uint64
	started   time.Time

	testSite string
	// groupSite: the function of a Group that failed first (or its
	// first), the site of a test failure instead of the Group's.
	groupSite string
	// groupNames: a Group's subtests, one per package declaring the
	// test's name, in go test's order (TestName).
	groupNames []string
	// testFailed says whether the schedule's test has failed (t.Failed);
	// nil without a test.
	testFailed func() bool
	done       chan struct{}
	res        Result

	// earlyMoves tell the early moves that ended timed waits
	// (earlymove.go); earlyPend: the timers active before the last;
	// preClock: a replay's clock before replayClock moved it, where an
	// early move recorded there started. Last, off the hot fields' lines.
	earlyMoves []EarlyMove
	earlyPend  []pendingTimer
	preClock   time.Duration
	// aheadIdle: fireRecordedDue fires as its recording did, with
	// nothing able to run (fireTimersTo's idle).
	aheadIdle bool
	// runFilter is Config.Run read (nil: every subtest runs).
	runFilter *RunFilter
	// skipFilter is Config.Skip read (nil: no subtest is skipped).
	skipFilter *RunFilter
}

//go:norace
func newSched(cfg Config, index int, strat Strategy, replay *Schedule) *sched {
	s := &sched{
		cfg: cfg, strat: strat, replay: replay, index: index,
		subOnly:  subOf(cfg.Test),
		maxSteps: cfg.MaxSteps, timeout: cfg.StepTimeout, last: -1, quietN: -1, settleN: -1, replayDone: -2,
		timers: map[*time.Timer]*vtimer{}, tickers: map[*time.Ticker]*vtimer{},
		sites: map[uintptr]string{}, done: make(chan struct{}), targets: soloTargets(cfg.Targets),
		base: time.Now(), started: monoNow(),
		// Room made before the test runs: a goroutine released or left
		// outside control allocates nothing in code a test measures.
		running: make([]*gstate, 0, shadowRoom), outside: make([]*gstate, 0, shadowRoom),
		listBuf: make([]Candidate, 0, shadowRoom),
		ready:   make([]*gstate, 0, shadowRoom), readyList: make([]Candidate, 0, shadowRoom),
		freshReady: make([]*gstate, 0, shadowRoom), passSinceSeq: -1,
		sleeping: make([]*gstate, 0, shadowRoom), blocked: make([]*gstate, 0, shadowRoom),
	}
	if s.maxSteps <= 0 {
		s.maxSteps = DefaultMaxSteps
	}
	if cfg.Run != "" {
		s.runFilter, _ = ParseRun(cfg.Run) // checked by the driver; nil runs every subtest
	}
	if cfg.Skip != "" {
		s.skipFilter, _ = ParseRun(cfg.Skip) // checked by the driver; nil skips none
	}
	if replay != nil && !replay.ClockBase.IsZero() {
		s.base = sameFraction(s.base, replay.ClockBase)
	}
	s.nowTick = NowTick
	s.noStretch = replay != nil && !replay.Stretch
	s.noBubbleEnd = replay != nil && !replay.BubbleEnd
	if replay != nil && replay.NowTick > 0 {
		s.nowTick = replay.NowTick
	}
	if dumpBuf == nil {
		dumpBuf = make([]byte, 1<<20)
	}
	// Room for the decisions a schedule may make, kept from one schedule
	// to the next: appending then never allocates inside code a test
	// measures, nor copies the decisions made so far.
	room := decisionRoom(s.maxSteps)
	decBuf.d.reserve(room)
	decBuf.pcs.reserve(room)
	s.decisions, s.decPCs = decBuf.d, decBuf.pcs
	decBuf.d, decBuf.pcs = chunkLog[Decision]{}, chunkLog[[10]uintptr]{}
	s.takeShadow()
	s.adoptCarried()
	if s.timeout <= 0 {
		s.timeout = DefaultStepTimeout
	}
	s.seed = cfg.Seed + int64(index)
	if replay != nil {
		s.seed = replay.Seed
	}
	s.randState = uint64(s.seed)
	s.randSeeded = nil
	s.mapState = uint64(s.seed) ^ mapSalt
	strat.Reset(s.seed)
	if replay != nil && replay.bySeed {
		// Seed, clock and tick as recorded; the decisions are the
		// strategy's, as in the search (seedDiverged checks them).
		s.replay = nil
	}
	return s
}

// fairWindow is how many fair decisions judge whether live goroutines
// left after the test returned still run: postTestSteps, or fairTurns
// each when that is more (a thousand goroutines get a few turns each in
// postTestSteps, too few to end).
func fairWindow(live int) int {
	if fairTurns*live > postTestSteps {
		return fairTurns * live
	}
	return postTestSteps
}

// fairTurns is the turns each live goroutine gets in a fair window.
const fairTurns = 8

// nap sleeps the scheduler goroutine for about d. Not time.Sleep: its
// first call in a goroutine allocates a timer, inside code a test may
// be measuring (ttlcache counts the Mallocs of every goroutine).
//
//go:norace
func nap(d time.Duration) {
	end := monoNow().Add(d)
	for left := d; left > 0; left = time.Until(end) {
		futexSleep(left)
	}
}

// StepBoundPrefix starts Result.Inconclusive of a schedule stopped by the
// step bound (Config.MaxSteps).
const StepBoundPrefix = "step bound: "

// DefaultMaxSteps and DefaultStepTimeout apply when Config leaves them 0.
const (
	DefaultMaxSteps    = 20000
	DefaultStepTimeout = 10 * time.Second
	postTestSteps      = 2000
)

//go:norace
func (s *sched) newG() *gstate {
	g := &gstate{id: len(s.gs)}
	g.objs = g.objArr[:0]
	s.gs = append(s.gs, g)
	s.live++
	return g
}

// onlyDaemons: every goroutine still live is a daemon.
//
//go:norace
func (s *sched) onlyDaemons() bool {
	for _, g := range s.gs {
		if !g.exited && !g.daemon {
			return false
		}
	}
	return true
}

// loop is the scheduler goroutine.
//
//go:norace
func (s *sched) loop() {
	s.sgid = goid()
	openJoins(s)
	for {
		s.collect()
		s.collectCrowded()
		if s.fail != nil && !s.aborting {
			s.abort()
			continue
		}
		if s.live == 0 {
			// A context.AfterFunc function on its way still joins.
			if s.awaitArmed() || s.admitJoin() {
				continue
			}
			if s.settleAfterFuncs() {
				continue
			}
			break
		}
		if s.aborting {
			s.abortNext()
			continue
		}
		if s.testDone && s.fail == nil && s.onlyDaemons() {
			// What the test left is the process's (gstate.daemon):
			// the schedule passes, and they unwind.
			s.abort()
			continue
		}
		s.takeOutsideSignals()
		s.resumeTickers()
		s.next()
	}
	closeJoins(s)
	s.finish()
	if s.lostTest && s.res.Outcome != "pass" {
		// The schedule ended on a failure while the test's goroutine was
		// left blocked outside control (abandon): it may never return to
		// end the test, and the failure would be lost with the process
		// killed at its deadline. The process ends here with the result.
		watchdogExit(s.index, s.res)
	}
	if s.lostTest {
		// It ended undecided (the step bound) with the test's goroutine
		// blocked outside control, most likely on what a goroutine the
		// end unwound would have done (puddle's TestReleaseAfterAcquire:
		// x/sync/semaphore's Acquire, its releaser unwound): the test
		// never returns, and the process waited out its share of the
		// budget. It ends here, inconclusive; the driver goes on in a
		// fresh process.
		lostTestExit(s.index, s.res)
	}
	s.carryTimers()
	close(s.done)
}

// collect waits for every released goroutine to arrive at its next point.
// A goroutine that does not come back within outsideSlice and is found
// blocked (in code that is not rewritten: a dependency's semaphore, a real
// sleep, a retry loop, a subprocess) waits outside control: the others go
// on meanwhile, and it is taken back when it arrives.
//
//go:norace
func (s *sched) collect() {
	s.reclaim()
	// The released goroutines left for the outside world when released,
	// not when found blocked there (outsideSlice later).
	released, clock := monoNow(), s.now
	// Index, not reslice: the slice keeps its room (no allocation per
	// decision), and arrivals while aborting may append to it.
	for i := 0; i < len(s.running); i++ {
		g := s.running[i]
		if g.held {
			g.held = false
			g.wake()
		}
		s.waitingOn = g
		v, back := s.await(g)
		s.waitingOn = nil
		if !back {
			g.outside = true
			g.outsideAt = monoNow()
			s.outside = append(s.outside, g)
			if s.paceFrom.IsZero() && outsideWorld(g) {
				s.paceFrom, s.paceClock = released, clock
			}
			continue
		}
		g.arrSeen = v
		s.progress++
		s.arrived(g)
	}
	s.running = s.running[:0]
}

// await waits for g to arrive; back is false when g blocks outside
// control. A goroutine that keeps running past the step limit ends the
// process (the watchdog).
//
//go:norace
func (s *sched) await(g *gstate) (v uint32, back bool) {
	if g.wentOutside {
		// It blocked outside control on such a channel before (a mock
		// clock's Sleep in a loop): look sooner, without sleeping (a
		// short sleep takes a millisecond on a loaded machine).
		for start := monoNow(); time.Since(start) < outsideFirst; {
			if v = g.arrSeq; v != g.arrSeen {
				return v, true
			}
			runtime.Gosched()
		}
		if s.foundOutside(g) {
			return 0, false
		}
	}
	if v = s.awaitSlice(g); v != g.arrSeen {
		return v, true
	}
	if g.outside {
		return 0, false // found blocked while a joiner waits (awaitSlice)
	}
	limit := s.stepLimit()
	start := monoNow().Add(-outsideSlice)
	cpu0, _ := cpuNow()
	step := outsideSlice
	for {
		if beforeOutsideLook != nil {
			beforeOutsideLook(g)
		}
		if s.foundOutside(g) {
			g.wentOutside = s.lastVirtual
			return 0, false
		}
		if v = g.arrSeq; v != g.arrSeen {
			return v, true // before the watchdog looks at the time
		}
		left := limit - time.Since(start)
		if left <= 0 {
			if more := s.starvedMore(cpu0, limit); more > 0 {
				limit += more
				continue
			}
			s.watchdogAfter(g, limit)
		}
		if step > left {
			step = left
		}
		if v = waitChange(&g.arrSeq, g.arrSeen, step); v != g.arrSeen {
			return v, true
		}
		if step < limit/8 {
			step *= 2
		}
	}
}

// foundOutside reports whether g, awaited, is blocked outside control,
// recording what it waits in. One that arrived before the look and has
// blocked since (a panicking test's g0 exits, then waits for the
// schedule's end on a channel) is not: taken for one, the schedule went
// on with another goroutine at a decision a replay did not make. The
// caller's next wait sees the arrival.
//
//go:norace
func (s *sched) foundOutside(g *gstate) bool {
	if !s.blockedOutside(g) || g.arrSeq != g.arrSeen {
		return false
	}
	g.inIO, g.inWait, g.inHold, g.inVirtual = s.lastIO, s.lastWait, s.lastHold, s.lastVirtual
	g.inPipe, g.inAccept = s.lastPipe, s.lastAccept
	return true
}

// beforeDecision, when set (by tests), runs before each decision: the
// scheduler's own time, as a loaded machine stretches it.
var beforeDecision func()

// beforeOutsideLook, when set (by tests), runs before await looks whether
// the goroutine it waits for is blocked outside control.
var beforeOutsideLook func(g *gstate)

//go:norace
func (s *sched) arrived(g *gstate) {
	switch g.req.op {
	case opExit:
		g.exited = true
		s.unpark(g)
		s.live--
		s.tab = s.tab.with(g.gid, nil)
		if g.panicked && !s.aborting && s.fail == nil {
			s.fail = &failure{kind: "panic", msg: "panic: " + g.panicVal, site: g.panicSite, sub: subName(g)}
			s.fail.gs = append(s.fail.gs, GoroutineState{ID: g.id, Op: "panic", Site: g.panicSite, Stack: g.panicStack})
			s.collectStates(s.fail)
		}
		if g.id == 0 {
			s.testDone, s.doneAt = true, s.now
			if s.live > 0 {
				rawStderr(MarkerReturned + strconv.Itoa(s.index) + "\n")
			}
			endTestJoins(s) // go test waits for no goroutine started now
			// What the test dropped is collected when its goroutines
			// next wait for time (timedCollect).
			s.idleGC = s.live > 0
		}
		if p := g.parent; p != nil && g.parallel {
			p.pending--
		}
		return
	case opParallel:
		if p := g.parent; p != nil && !g.parallel {
			g.parallel = true
			p.pending++
		}
	case opParallelWait:
		g.fnDone = true
	case opStart:
		if g.id != 0 {
			s.tab = s.tab.with(g.gid, g)
		}
	case opSleep:
		g.wakeAt = s.after(g.req.d)
	case opOsExit:
		s.osExit(g)
	}
	if !g.wasReal || g.req.op != g.realOp || pcsHash(&g.req.pcs) != g.realAt {
		g.parkAt = s.now
		g.settled = false
	}
	s.park(g) // after parkAt: the channels' waits count it (countWaits)
	g.wasReal = false
	if s.aborting {
		s.abortArrival(g)
	}
}

// next makes one decision.
//
//go:norace
func (s *sched) next() {
	if beforeDecision != nil {
		beforeDecision()
	}
	// While a goroutine is (or was) in real I/O, things happen out there,
	// which take time.
	if s.wasIO || s.ioOutside() {
		s.advanceReal(outsideTick)
	}
	s.wasIO = false
	s.replayClock()
	if s.keepPace() {
		return
	}
	if s.realBlocked() && !s.foreignOutside() {
		// The goroutine outside control that may have been their partner
		// is back: the shadow sees every party again, also when others
		// keep the scheduler busy (a loop spinning) and it is never idle.
		if s.recallBlocked() {
			return
		}
	}
	if s.admitJoin() || s.awaitRecorded() {
		return
	}
	s.noticeRealCloses()
	cands, list := s.enabledList()
	if len(cands) == 0 {
		s.idleSeq++ // nobody passed over is waiting now (plainOverdue)
		// A context.AfterFunc function whose context is done joins
		// first: it is on its way.
		if s.awaitArmed() {
			return
		}
		// Channels closed or fed outside control first: they are ready
		// now, before the clock moves.
		if s.settle() {
			return
		}
		if s.foreignOutside() {
			if s.blockForReal() {
				return
			}
		} else if s.recallBlocked() {
			return
		}
		if len(s.outside) > 0 {
			// Goroutines outside control may end this; they get as much
			// real time as the virtual clock would jump (up to a bound;
			// the bound itself when all are in in-process pipes).
			wait := outsideWait
			if next, ok := s.nextDeadline(); ok && next-s.now < wait && !s.pipesOnly() {
				wait = next - s.now
			} else if !ok {
				wait = 0 // no clock to move: the wait below decides
			}
			if wait > 0 && s.virtualWait() {
				wait = 0 // only the program can wake them: the clock moves now
			}
			if s.waitOutsideUntilVirtual(wait, true) {
				return
			}
		}
		if s.paceForeign() {
			return
		}
		if s.awaitRecordedClock() {
			return
		}
		if next, ok := s.nextDeadline(); ok && s.testTimedOut(next) {
			return
		}
		if from := s.now; s.idleFires < s.idleFiresMax() && s.fireTimers() {
			if s.testDone {
				s.noteClockWaits()
			}
			if s.earlyFires > 0 && s.now-from > earlyMax {
				s.earlyHang = true
				s.earlyHangTest = s.earlyHangTest || !s.testDone
			}
			s.idleFires++
			return
		}
		if s.poll() {
			return
		}
		s.idleFires = 0
		if s.live == 0 {
			return
		}
		if len(s.outside) > 0 {
			// Nothing else can happen: the watchdog, counted from when
			// the first of them went outside. Once the test has returned,
			// goroutines blocked outside control are left behind (as
			// under go test) and the controlled ones blocked, behind them
			// say, are a leak, not a hang.
			limit := s.stepLimit()
			g := s.outside[0]
			wait := limit - time.Since(g.outsideAt)
			if s.testDone && wait > abandonWait {
				wait = abandonWait
			}
			if s.waitOutside(wait) {
				return
			}
			if !s.testDone {
				if busy, _ := s.foreignActive(); busy {
					// Goroutines outside control are computing: what g
					// waits for may be theirs (errgroup's workers behind
					// its semaphore), progress, not a hang. The watchdog
					// counts from when they stop (the run's end bounds
					// it: stepLimit, the driver's hard stop).
					g.outsideAt = monoNow()
					foreignWorkWaits++
					return
				}
				if s.waitingForChild() {
					// As long: a child process works for it.
					g.outsideAt = monoNow()
					childWaits++
					return
				}
			}
			if s.testDone && s.leftForGood() {
				// Stranded in the standard library, nobody left to
				// free them: a leak, not goroutines left behind.
				s.blockedFailure(false)
				return
			}
			if s.testDone && s.abandon() {
				return
			}
			s.watchdogAfter(g, limit)
		}
		if s.joinReady() {
			return // a goroutine started outside control joins first
		}
		// Blocked with no collection since the test returned and no
		// timer to wait for: one now, and a finalizer's send (a
		// cleaner's stop) may free a goroutine, as under go test.
		if s.testDone && s.collectDropped() && s.poll() {
			return
		}
		s.blockedFailure(false)
		return
	}
	s.idleFires = 0
	if s.testDone && !s.replayBeforeDone() {
		s.postSteps++
		s.postAll++
		if s.postSteps == postTestSteps+1 {
			s.postLive, s.postWindow = s.live, fairWindow(s.live)
			// No collection since the test returned when its goroutines
			// never all waited for time (a ticker always due as reads move
			// the clock: timedCollect had no turn). One now, before the
			// fair window: a goroutine a finalizer stops (a cache's
			// cleaner, when its wrapper is collected) ends in it, as under
			// go test, where a collection comes in time.
			s.collectDropped()
		}
		if s.postSteps > postTestSteps+s.postWindow && s.live < s.postLive {
			// Fewer goroutines live than when the fair window began:
			// they are ending, slowly (a thousand that each take a
			// lock), not running for ever. Another fair window, until
			// they stop ending or the step bound.
			s.postSteps, s.postLive, s.postWindow = postTestSteps+1, s.live, fairWindow(s.live)
		}
		if s.postSteps > postTestSteps+s.postWindow {
			s.blockedFailure(true)
			return
		}
	}
	if s.stretchFire {
		// A stretched read took the clock to a deadline: what is due
		// fires, as it would for real once that time has passed.
		s.stretchFire = false
		if s.fireTimersTo(s.now) {
			return
		}
	}
	if s.spinRun > 0 && s.spinRun%spinSample == 0 && s.sampledAt != s.spinCount {
		s.sampleSpinners()
	}
	if s.spinRun >= spinAdvance && s.spinRun%spinAdvance == 0 {
		if busy := s.notSpinning(cands); len(busy) > 0 {
			// Before time moves for a spinner, a goroutine that could
			// do something else runs (one just started, say), as it
			// would in parallel for real: the spinner is preempted.
			cands = busy
			list = s.candidateList(cands)
		} else if s.turned != s.spinCount {
			s.turned = s.spinCount
			if s.spinTurn() {
				return
			}
		}
	}
	if s.steps >= s.maxSteps {
		// A bound, not a bug: the schedule is inconclusive.
		s.fail = &failure{kind: kindInconclusive, msg: StepBoundPrefix + "no end after " + strconv.Itoa(s.steps) + " scheduling steps"}
		return
	}
	if s.earlyTime(list) {
		return
	}
	if len(s.overlapGs) > 0 && s.replay == nil && !s.fairPhase() {
		if first := s.overlapRun(cands); len(first) > 0 {
			cands = first
			list = s.candidateList(cands)
		}
	}
	all := cands // countPassed: the held could run too
	if len(all) >= 2 {
		s.choices++
	}
	if len(s.held) > 0 && s.replay == nil && !s.fairPhase() {
		if rest := s.heldRun(cands); len(rest) > 0 {
			cands = rest
			list = s.candidateList(cands)
		}
	}
	var pick *gstate
	if s.replay != nil && s.diverged == "" {
		if s.awaitRecordedBack(cands) || s.awaitRecordedDone() || s.fireRecordedDue(cands) {
			return
		}
		pick = s.replayPick(cands, list)
	}
	if s.diverged != "" && s.replay != nil && s.replay.Leave {
		// A replay with Leave goes on unperturbed once it left its
		// decisions.
		if _, ok := s.strat.(Plain); !ok {
			s.strat = Plain{}
		}
	}
	if pick == nil && s.fairPhase() {
		pick = fairPick(cands)
	}
	if pick == nil {
		if _, ok := s.strat.(Plain); ok {
			pick = s.plainOverdue(all)
			if pick != nil && !slices.Contains(cands, pick) {
				pick = nil // held back (heldRun, overlapRun)
			}
			// The unperturbed schedule runs the last goroutine on while
			// it can (Plain.Next), without a look at all the others. At
			// a Gosched it goes to the back of the queue, as in the
			// runtime: the goroutine that waited longest runs (not the
			// newest, which would let two spinners pass the turn to each
			// other while the lock's holder waits: ants' spin lock).
			if pick == nil && s.last >= 0 {
				if g := s.gs[s.last]; g.set == setReady && int(g.setIdx) < len(cands) && cands[g.setIdx] == g {
					pick = g
					if g.req.op == opYield && len(cands) > 1 {
						pick = fairPick(cands)
					}
				}
			}
		}
	}
	if pick == nil {
		pick = cands[s.strat.Next(list, s.last, s.steps)]
	}
	if s.locksLeftHeld(pick) {
		// The real lock is held by a goroutine an earlier schedule
		// unwound: it would block for real. Not the code's doing.
		endProcess()
		s.fail = &failure{kind: kindInconclusive, msg: LeftHeldPrefix + "at " + s.shortSiteOf(pick)}
		return
	}
	pick.lastPick = s.steps
	s.countPassed(all, pick)
	s.soloNext = s.soloGrant(all, pick)
	s.decide(pick)
	s.soloNext = false
}

// overlapRun: the callbacks an overlapping move started (earlyTime) that
// can run; once none can, the move's delay is over (overlapGs cleared).
//
//go:norace
func (s *sched) overlapRun(cands []*gstate) []*gstate {
	var first []*gstate
	for _, g := range cands {
		for _, c := range s.overlapGs {
			if g == c {
				first = append(first, g)
			}
		}
	}
	if len(first) == 0 {
		s.overlapGs = s.overlapGs[:0]
	}
	return first
}

// hungAfterEarly: earlyHang, in a schedule where no goroutine outside
// control took part (their work, unseen, may be what a jump skipped).
//
//go:norace
func (s *sched) hungAfterEarly() bool {
	if s.cfg.KeepEarly {
		// repro's: a test's failure after an early jump is the log's
		// unless the test hung before it returned; its leftovers' long
		// waits after it (a cleanup ticker) are not its hang.
		return s.earlyHangTest && !s.foreignSeen
	}
	return s.earlyHang && !s.foreignSeen
}

// sendAndWait hands the parked g a reply in the given mode and waits for
// it to arrive again; past the step limit the watchdog ends the process.
//
//go:norace
func (s *sched) sendAndWait(g *gstate, mode uint8) {
	g.rep = reply{mode: mode}
	g.wake()
	s.waitingOn = g
	g.arrSeen = s.waitStep(g, &g.arrSeq, g.arrSeen)
	s.waitingOn = nil
}

// result builds the Result of the schedule so far.
//
//go:norace
func (s *sched) result() Result {
	for ; s.sited < s.decisions.len(); s.sited++ {
		s.sitedDecision(s.sited)
	}
	r := Result{Index: s.index, Seed: s.seed, Outcome: "pass", Decisions: s.decisions.slice(),
		Steps: s.steps, Diverged: s.diverged, Elapsed: time.Since(s.started), ClockBase: s.base, Virtual: s.now,
		EarlyMoves: s.earlyMoves, Unordered: s.unorderedResult(), Stretched: s.stretched, StretchedBy: s.stretchedBy, BubbleEnd: s.bubbleEnded, Choices: s.choices, Draws: s.draws, AddrInUse: lastAddrInUse(),
		AllocReads: int(s.allocs.reads.Load()), AllocCounts: s.allocs.counts(), Dumps: int(s.dumps.Load())}
	if s.foreignSeen {
		r.Choices++ // goroutines outside control: the OS's timing
	}
	if s.testDone {
		// What the test waited for; go test waits for nothing after.
		r.Virtual = s.doneAt
	}
	if r.Decisions == nil {
		r.Decisions = []Decision{}
	}
	if f := s.fail; f != nil && f.kind == kindInconclusive {
		r.Inconclusive = f.msg
	} else if f != nil {
		r.Outcome, r.Message, r.Site, r.Goroutines, r.Subtest = f.kind, f.msg, f.site, f.gs, f.sub
		s.addPaths(&r)
	}
	s.targetCounts(&r)
	if len(s.cfg.Targets) > 0 {
		r.Subtests = s.subtestRuns() // what pr's search reads (explore/subtests.go)
	}
	return r
}

//go:norace
func (s *sched) finish() {
	if s.replay != nil && s.diverged == "" && s.steps < len(s.replay.Decisions) {
		s.diverged = "the run ended after " + strconv.Itoa(s.steps) + " of the schedule's " + strconv.Itoa(len(s.replay.Decisions)) + " decisions"
	}
	s.res = s.result()
	if s.res.Outcome == "pass" && s.res.Inconclusive == "" && s.testFailed != nil && s.testFailed() {
		s.addPaths(&s.res) // the test's own failure (the driver's finish says so)
	}
	s.decisions.reset()
	s.decPCs.reset()
	decBuf.d, decBuf.pcs = s.decisions, s.decPCs
	s.decisions, s.decPCs = chunkLog[Decision]{}, chunkLog[[10]uintptr]{}
	s.noteLeftHeld()
	s.giveShadow()
}

// sameFraction is the first time at or after now whose fraction of a
// second is rec's: a replay's clock starts there, less than a second
// later than the wall clock (a deadline on real I/O then fires late, never
// early).
func sameFraction(now, rec time.Time) time.Time {
	t := now.Truncate(time.Second).Add(time.Duration(rec.Nanosecond()))
	if t.Before(now) {
		t = t.Add(time.Second)
	}
	return t
}
