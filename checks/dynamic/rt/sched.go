package rt

import (
	"bytes"
	"math"
	"reflect"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
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

type opKind uint8

const (
	opNone opKind = iota
	opStart
	opGo
	opYield
	opAtomic
	opLock
	opUnlock
	opTryLock
	opWLock
	opWUnlock
	opTryWLock
	opRLock
	opRUnlock
	opTryRLock
	opLockerLock
	opLockerUnlock
	opWGAdd
	opWGWait
	opOnce
	opOnceDone
	opCondWait
	opCondPark
	opSignal
	opBroadcast
	opSend
	opRecv
	opClose
	opSelect
	opSleep
	opTimerNew
	opTimerStop
	opTimerReset
	opTickerStop
	opTickerReset
	opRun
	opRunWait
	opParallel
	opParallelWait
	opExit
	opAtomicLoad
	opNow
)

var opNames = [...]string{
	opNone: "none", opStart: "start", opGo: "go", opYield: "Gosched", opAtomic: "atomic",
	opLock: "Mutex.Lock", opUnlock: "Mutex.Unlock", opTryLock: "Mutex.TryLock",
	opWLock: "RWMutex.Lock", opWUnlock: "RWMutex.Unlock", opTryWLock: "RWMutex.TryLock",
	opRLock: "RWMutex.RLock", opRUnlock: "RWMutex.RUnlock", opTryRLock: "RWMutex.TryRLock",
	opLockerLock: "Locker.Lock", opLockerUnlock: "Locker.Unlock", opWGAdd: "WaitGroup.Add", opWGWait: "WaitGroup.Wait",
	opOnce: "Once.Do", opOnceDone: "Once.Do return", opCondWait: "Cond.Wait", opCondPark: "Cond.Wait (parked)",
	opSignal: "Cond.Signal", opBroadcast: "Cond.Broadcast", opSend: "chan send", opRecv: "chan receive",
	opClose: "close", opSelect: "select", opSleep: "time.Sleep", opTimerNew: "timer create",
	opTimerStop: "Timer.Stop", opTimerReset: "Timer.Reset", opTickerStop: "Ticker.Stop", opTickerReset: "Ticker.Reset",
	opRun: "t.Run", opRunWait: "t.Run", opParallel: "t.Parallel", opParallelWait: "t.Run (parallel subtests)", opExit: "exit",
	opAtomicLoad: "atomic load", opNow: "time.Now",
}

func (o opKind) String() string { return opNames[o] }

// Reply modes.
const (
	mRun         uint8 = iota // perform the operation
	mPoll                     // try it without blocking (foreign partner?)
	mAbort                    // the schedule is over: unwind
	mSkip                     // do not perform the real operation
	mDump                     // capture your stack and arrive again
	mPollDefault              // select: try the receive cases, else take default
	mBlock                    // perform it for real, blocking, until done or recalled
)

type caseReq struct {
	ptr  unsafe.Pointer
	rv   reflect.Value
	send bool
}

type request struct {
	op         opKind
	obj        unsafe.Pointer
	rv         reflect.Value // channel
	cases      []caseReq
	hasDefault bool
	d          time.Duration
	delta      int
	fn         func()
	locker     sync.Locker
	timerKind  uint8
	child      *gstate // opRunWait: the subtest awaited
	pcs        [10]uintptr
	pollFailed bool
	readNow    bool // Now was called since the previous scheduling point
	// addr and val: an atomic load's address and the value there (wordAt)
	addr unsafe.Pointer
	val  uint64
}

type reply struct {
	mode    uint8
	choice  int
	adapter bool
	gate    bool // wait after the channel operation (gstate.held)
	ok      bool
	child   *gstate
	ch      chan time.Time
	timer   *time.Timer
	ticker  *time.Ticker
	hb      *uint32       // the timer's happens-before word (see armed)
	recall  chan struct{} // mBlock: closed to take the goroutine back
}

type gstate struct {
	id      int
	objs    []uintptr     // the channels of its pending select, for its Candidate
	objArr  [4]uintptr    // objs' first room
	parkAt  time.Duration // the virtual time it parked at its pending operation
	parkSeq uint64        // when it was last released, in the unperturbed order (sched.arrivals)
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
	// cand is req as the strategy sees it, made once per scheduling
	// point (candidate): a goroutine stays parked over many decisions.
	cand   Candidate
	candOK bool
	stack  string
	// exit information
	panicked   bool
	panicVal   string
	panicStack string
	panicSite  string
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
	// wentOutside: it was found blocked outside control before, on a
	// channel of code whose time is virtual; await looks sooner (a stack
	// dump per release: only for these)
	wentOutside bool
	outsideAt   time.Time // when it was found so
	// blockedReal: released to block for real on its channel operation
	// (mBlock) while a party outside control may be its partner; recall
	// takes it back.
	blockedReal bool
	recall      chan struct{}
	wakeAt      time.Duration
	signal      bool
	parent      *gstate // the goroutine whose t.Run started this subtest
	// shadow of t.Parallel, written by S: parallel after the subtest
	// called it; fnDone after the test's function returned; pending
	// counts the parallel subtests still running.
	parallel bool
	fnDone   bool
	pending  int
	dumped   bool
	// lastPick is the step at which it was last chosen (fair picks).
	lastPick int
	// set is the set of parked goroutines it is in (see park), at setIdx.
	set    uint8
	setIdx int32
}

// slab hands out shadow states from chunks, one allocation per
// shadowRoom of them.
type slab[T any] struct{ buf []T }

// reset forgets the states handed out (zeroing them: they may hold
// channels and goroutines).
func (b *slab[T]) reset() {
	var zero T
	for i := range b.buf {
		b.buf[i] = zero
	}
	b.buf = b.buf[:0]
}

func (b *slab[T]) next() *T {
	if len(b.buf) == cap(b.buf) {
		b.buf = make([]T, 0, shadowRoom)
	}
	var zero T
	b.buf = append(b.buf, zero)
	return &b.buf[len(b.buf)-1]
}

// decBuf holds the decision buffers between schedules (one schedule runs
// at a time); decRoom is their first size.
var decBuf struct {
	d   []Decision
	pcs [][10]uintptr
}

const decRoom = 1024

// shadowRoom is how many objects of each kind a schedule has room for
// before its shadow state allocates.
const shadowRoom = 64

type mutexState struct{ owner int }
type rwState struct{ writer, pending, readers int }
type onceState struct{ state, runner int }
type condState struct{ waiters []*gstate }
type chanState struct {
	rv     reflect.Value
	closed bool
}

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
}

type failure struct {
	kind, msg, site string
	gs              []GoroutineState
}

type sched struct {
	cfg      Config
	strat    Strategy
	replay   *Schedule
	diverged string
	index    int
	seed     int64
	maxSteps int
	timeout  time.Duration

	tab     *gtable
	gs      []*gstate
	running []*gstate
	outside []*gstate // released goroutines blocked outside control
	sgid    uint64    // the scheduler goroutine's runtime id
	live    int
	last    int
	// arrivals counts releases of goroutines (gstate.parkSeq).
	arrivals uint64

	objs      map[unsafe.Pointer]int // Decision.Obj numbers
	mutexes   map[unsafe.Pointer]*mutexState
	rws       map[unsafe.Pointer]*rwState
	wgs       map[unsafe.Pointer]*int
	onces     map[unsafe.Pointer]*onceState
	conds     map[unsafe.Pointer]*condState
	chans     map[unsafe.Pointer]*chanState
	timers    map[*time.Timer]*vtimer
	tickers   map[*time.Ticker]*vtimer
	tq        []*vtimer
	tseq      int
	now       time.Duration
	base      time.Time
	idleFires int

	sites map[uintptr]string
	slabs struct {
		mutexes slab[mutexState]
		rws     slab[rwState]
		wgs     slab[int]
		onces   slab[onceState]
		conds   slab[condState]
		chans   slab[chanState]
	}

	decisions []Decision
	decPCs    [][10]uintptr // the call stack of each decision (Site is resolved late)
	sited     int           // decisions whose Site is resolved
	// waiters counts the parked goroutines at each channel and direction
	// (kept by park and unlist), so that hasPartner and queuedBehind need
	// not scan the blocked goroutines for each of them.
	waiters map[chanDir]int32
	listBuf []Candidate
	// The parked goroutines in three sets, kept as they park and leave
	// (park, unpark), so that a decision looks at the blocked ones only:
	// ready (an operation that cannot block: go, atomic, unlock...; or a
	// sleep whose time has come), with their candidates in readyList;
	// sleeping (a sleep until wakeAt, the earliest at minWake); blocked
	// (the rest, judged by enabled at every decision).
	ready     []*gstate
	readyList []Candidate
	sleeping  []*gstate
	minWake   time.Duration
	blocked   []*gstate
	abortFrom int       // no goroutine before it is parked (abortNext)
	busyBuf   []*gstate // reused by notSpinning
	partBuf   []*gstate // reused by partners
	steps     int
	postSteps int
	// spinRun counts the decisions in a row that only spun (see spinning);
	// spinStart is the wall time the run began.
	spinRun   int
	spinStart time.Time
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
	// quietN is the number of goroutines when paceForeign last found none
	// outside control active (-1: none such), quietSkips the looks it
	// skipped since.
	quietN     int
	quietSkips int
	nowStep    time.Duration // the clock's step for a loop reading it
	// spinNow: a goroutine read the clock since the last decision that
	// did not spin (Now is a scheduling point only every nowSpins calls).
	spinNow bool
	// wasIO: a goroutine came back from real I/O since the last decision
	wasIO bool
	// lastIO: the goroutine blockedOutside last found blocked was in I/O
	lastIO bool
	// lastWait, lastHold: ... waited for something other than a lock
	// (inWait), or for a lock (inHold)
	lastWait bool
	lastHold bool
	// lastVirtual: ... on a channel in code whose time is virtual
	lastVirtual bool
	testDone    bool
	aborting    bool
	fail        *failure
	waitingOn   *gstate
	progress    uint64
	started     time.Time

	testSite string
	done     chan struct{}
	res      Result
}

// active is the running schedule (nil when none). Written by the goroutine
// that starts and ends schedules, read by anyone in //go:norace code.
var active *sched

//go:norace
func setActive(s *sched) { active = s }

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
	g := t.lookup(goid())
	if g == nil {
		// A goroutine outside control (one that code which is not
		// rewritten started) calls into the program while a schedule
		// runs: it yields the processor here, so that polling in a loop
		// it cannot starve the controlled goroutines, whose hand-offs
		// each need a processor.
		runtime.Gosched()
	}
	return g
}

// call is a scheduling point: publish req, wait for the scheduler's reply.
//
//go:norace
func (g *gstate) call(r *request) reply {
	g.joinForward()
	g.pass()
	g.req = *r
	g.candOK = false
	g.req.readNow = g.nows > 0
	g.nows = 0
	runtime.Callers(2, g.req.pcs[:])
	for {
		bump(&g.arrSeq)
		g.runSeen = g.waitTurn(g.runSeen)
		rep := g.rep
		switch rep.mode {
		case mDump:
			g.stack = stackOf()
			continue
		case mAbort:
			panic(errAbort)
		}
		g.gated = rep.gate
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

//go:norace
func newSched(cfg Config, index int, strat Strategy, replay *Schedule) *sched {
	s := &sched{
		cfg: cfg, strat: strat, replay: replay, index: index,
		maxSteps: cfg.MaxSteps, timeout: cfg.StepTimeout, last: -1, quietN: -1,
		timers: map[*time.Timer]*vtimer{}, tickers: map[*time.Ticker]*vtimer{},
		sites: map[uintptr]string{}, done: make(chan struct{}),
		base: time.Now(), started: time.Now(),
		// Room made before the test runs: a goroutine released or left
		// outside control allocates nothing in code a test measures.
		running: make([]*gstate, 0, shadowRoom), outside: make([]*gstate, 0, shadowRoom),
		listBuf: make([]Candidate, 0, shadowRoom),
		ready:   make([]*gstate, 0, shadowRoom), readyList: make([]Candidate, 0, shadowRoom),
		sleeping: make([]*gstate, 0, shadowRoom), blocked: make([]*gstate, 0, shadowRoom),
	}
	if s.maxSteps <= 0 {
		s.maxSteps = DefaultMaxSteps
	}
	if dumpBuf == nil {
		dumpBuf = make([]byte, 1<<20)
	}
	// Room for the decisions of most tests, kept from one schedule to the
	// next: appending then never allocates inside code a test measures.
	if cap(decBuf.d) < decRoom {
		decBuf.d, decBuf.pcs = make([]Decision, 0, decRoom), make([][10]uintptr, 0, decRoom)
	}
	s.decisions, s.decPCs = decBuf.d[:0], decBuf.pcs[:0]
	decBuf.d, decBuf.pcs = nil, nil
	s.takeShadow()
	if s.timeout <= 0 {
		s.timeout = DefaultStepTimeout
	}
	s.seed = cfg.Seed + int64(index)
	if replay != nil {
		s.seed = replay.Seed
	}
	strat.Reset(s.seed)
	return s
}

// nap sleeps the scheduler goroutine for about d. Not time.Sleep: its
// first call in a goroutine allocates a timer, inside code a test may
// be measuring (ttlcache counts the Mallocs of every goroutine).
//
//go:norace
func nap(d time.Duration) {
	end := time.Now().Add(d)
	for left := d; left > 0; left = time.Until(end) {
		futexSleep(left)
	}
}

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

// loop is the scheduler goroutine.
//
//go:norace
func (s *sched) loop() {
	s.sgid = goid()
	for {
		s.collect()
		if s.fail != nil && !s.aborting {
			s.abort()
			continue
		}
		if s.live == 0 {
			break
		}
		if s.aborting {
			s.abortNext()
			continue
		}
		s.next()
	}
	s.finish()
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
			g.outsideAt = time.Now()
			s.outside = append(s.outside, g)
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
		for start := time.Now(); time.Since(start) < outsideFirst; {
			if v = g.arrSeq; v != g.arrSeen {
				return v, true
			}
			runtime.Gosched()
		}
		if s.blockedOutside(g) {
			g.inIO, g.inWait, g.inHold, g.inVirtual = s.lastIO, s.lastWait, s.lastHold, s.lastVirtual
			return 0, false
		}
	}
	if v = waitChange(&g.arrSeq, g.arrSeen, outsideSlice); v != g.arrSeen {
		return v, true
	}
	limit := s.stepLimit()
	start := time.Now().Add(-outsideSlice)
	cpu0, _ := cpuNow()
	step := outsideSlice
	for {
		if s.blockedOutside(g) {
			g.inIO, g.inWait, g.inHold, g.inVirtual = s.lastIO, s.lastWait, s.lastHold, s.lastVirtual
			g.wentOutside = s.lastVirtual
			return 0, false
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

// blockedOutside: is g blocked (not running or runnable) by the runtime's
// account?
//
// It allocates nothing: a goroutine
// slow to come back (a loaded machine) must not show up in a test that
// counts allocations.
//
//go:norace
func (s *sched) blockedOutside(g *gstate) bool {
	if g.gid == 0 {
		return false
	}
	dump := dumpBuf[:runtime.Stack(dumpBuf, true)]
	var head [40]byte
	h := append(strconv.AppendUint(append(head[:0], "goroutine "...), g.gid, 10), " ["...)
	i := bytes.Index(dump, h)
	if i < 0 {
		return false
	}
	state := dump[i+len(h):]
	if j := bytes.IndexAny(state, ",]"); j >= 0 {
		state = state[:j]
	}
	s.lastIO = string(state) == "IO wait"
	// Not a system call: one of the program's own is counted below.
	s.lastWait = len(state) > 0 && !lockState(state) && string(state) != "syscall"
	// A system call of the program's own (a log line written to a slow
	// pipe) holds it like a lock: it comes back by itself. One of the
	// scheduler's hand-offs is told by its stack.
	s.lastHold = lockState(state) || string(state) == "syscall" && !handoffStack(dump[i:])
	s.lastVirtual = chanWaitState(state) && virtualClockBlock(dump[i:])
	return len(state) > 0 && !passingState(state)
}

// handoffStack: is the goroutine whose part of a stack dump starts block
// in one of the scheduler's own futex calls?
func handoffStack(block []byte) bool {
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

// reclaim takes back the goroutines outside control that have arrived at
// a scheduling point. It reports whether any had.
//
//go:norace
func (s *sched) reclaim() bool {
	any := false
	keep := s.outside[:0]
	for _, g := range s.outside {
		if v := g.arrSeq; v != g.arrSeen {
			g.arrSeen = v
			g.outside = false
			s.wasIO = s.wasIO || g.inIO
			g.inIO, g.inWait, g.inHold, g.inVirtual = false, false, false, false
			g.blockedReal, g.recall = false, nil
			s.progress++
			s.arrived(g)
			any = true
			continue
		}
		keep = append(keep, g)
	}
	s.outside = keep
	return any
}

// waitOutside waits up to d for a goroutine outside control to come back.
//
//go:norace
func (s *sched) waitOutside(d time.Duration) bool {
	start := time.Now()
	if s.waitingOutside() {
		defer s.realTimePassed(start)
	}
	pause := 20 * time.Microsecond
	for {
		if s.reclaim() {
			return true
		}
		left := d - time.Since(start)
		if left <= 0 {
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
func (s *sched) realTimePassed(start time.Time) { s.advance(time.Since(start)) }

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

// advance moves the clock by d, not past the next deadline.
//
//go:norace
func (s *sched) advance(d time.Duration) {
	t := s.after(d)
	if next, ok := s.nextDeadline(); ok && t > next {
		t = next
	}
	if t > s.now {
		s.now = t
	}
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
func (s *sched) nextDeadline() (time.Duration, bool) {
	var next time.Duration
	found := false
	for _, vt := range s.tq {
		if vt.active && (!found || vt.deadline < next) {
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

// outsideSlice is how long a released goroutine may take to come back
// before it is checked for blocking outside control; outsideWait is the
// longest the clock waits for such goroutines before it moves on.
const (
	outsideFirst = 50 * time.Microsecond
	outsideSlice = 5 * time.Millisecond
	outsideWait  = time.Second
)

//go:norace
func (s *sched) arrived(g *gstate) {
	switch g.req.op {
	case opExit:
		g.exited = true
		s.unpark(g)
		s.live--
		s.tab = s.tab.with(g.gid, nil)
		if g.panicked && !s.aborting && s.fail == nil {
			s.fail = &failure{kind: "panic", msg: "panic: " + g.panicVal, site: g.panicSite}
			s.fail.gs = append(s.fail.gs, GoroutineState{ID: g.id, Op: "panic", Site: g.panicSite, Stack: g.panicStack})
			s.collectStates(s.fail)
		}
		if g.id == 0 {
			s.testDone = true
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
	}
	s.park(g)
	if !g.wasReal || g.req.op != g.realOp || pcsHash(&g.req.pcs) != g.realAt {
		g.parkAt = s.now
	}
	g.wasReal = false
	if s.aborting {
		s.abortArrival(g)
	}
}

// next makes one decision.
//
//go:norace
func (s *sched) next() {
	// While a goroutine is (or was) in real I/O, things happen out there,
	// which take time.
	if s.wasIO || s.ioOutside() {
		s.advance(outsideTick)
	}
	s.wasIO = false
	if s.realBlocked() && !s.foreignOutside() {
		// The goroutine outside control that may have been their partner
		// is back: the shadow sees every party again, also when others
		// keep the scheduler busy (a loop spinning) and it is never idle.
		if s.recallBlocked() {
			return
		}
	}
	cands, list := s.enabledList()
	if len(cands) == 0 {
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
			// real time as the virtual clock would jump (up to a bound).
			wait := outsideWait
			if next, ok := s.nextDeadline(); ok && next-s.now < wait {
				wait = next - s.now
			} else if !ok {
				wait = 0 // no clock to move: the wait below decides
			}
			if wait > 0 && s.virtualWait() {
				wait = 0 // only the program can wake them: the clock moves now
			}
			if s.waitOutside(wait) {
				return
			}
		}
		if s.paceForeign() {
			return
		}
		if s.idleFires < 1000 && s.fireTimers() {
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
			if s.testDone && s.abandon() {
				return
			}
			s.watchdogAfter(g, limit)
		}
		s.blockedFailure(false)
		return
	}
	s.idleFires = 0
	if s.testDone {
		s.postSteps++
		if s.postSteps > 2*postTestSteps {
			s.blockedFailure(true)
			return
		}
	}
	if s.spinRun >= spinAdvance && s.spinRun%spinAdvance == 0 {
		if busy := s.notSpinning(cands); len(busy) > 0 {
			// Before time moves for a spinner, a goroutine that could
			// do something else runs (one just started, say), as it
			// would in parallel for real: the spinner is preempted.
			cands = busy
			list = s.listBuf[:0]
			for _, g := range cands {
				list = append(list, s.candidate(g)) // strategy.go
			}
			s.listBuf = list[:0]
		} else if s.spinTurn() {
			return
		}
	}
	if s.steps >= s.maxSteps {
		// A bound, not a bug: the schedule is inconclusive.
		s.fail = &failure{kind: kindInconclusive, msg: "step bound: no end after " + strconv.Itoa(s.steps) + " scheduling steps"}
		return
	}
	var pick *gstate
	if s.replay != nil && s.diverged == "" {
		pick = s.replayPick(cands, list)
	}
	if pick == nil && s.testDone && s.postSteps > postTestSteps {
		pick = fairPick(cands)
	}
	if pick == nil {
		if _, ok := s.strat.(Plain); ok && s.last >= 0 {
			// The unperturbed schedule runs the last goroutine on while
			// it can (Plain.Next), without a look at all the others.
			if g := s.gs[s.last]; g.set == setReady && int(g.setIdx) < len(cands) && cands[g.setIdx] == g {
				pick = g
			}
		}
	}
	if pick == nil {
		pick = cands[s.strat.Next(list, s.last, s.steps)]
	}
	pick.lastPick = s.steps
	s.decide(pick)
}

// fairPick chooses the goroutine that waited longest since it last ran.
// Whether a goroutine still running after the test returned ever ends is
// a liveness question, judged only on a fair schedule (as CHESS judges
// livelocks): a strategy that starves a goroutine ending on its own (PCT's
// lowest priority behind spinners) would otherwise leave it "running".
// So the postTestSteps decisions after the strategy's are fair.
//
//go:norace
func fairPick(cands []*gstate) *gstate {
	best := cands[0]
	for _, g := range cands[1:] {
		if g.lastPick < best.lastPick {
			best = g
		}
	}
	return best
}

//go:norace
func (s *sched) replayPick(cands []*gstate, list []Candidate) *gstate {
	i := s.steps
	if i >= len(s.replay.Decisions) {
		s.diverged = "decision " + strconv.Itoa(i) + ": the schedule has only " + strconv.Itoa(len(s.replay.Decisions)) + " decisions"
		return nil
	}
	d := s.replay.Decisions[i]
	if d.G < 0 || d.G >= len(s.gs) {
		s.diverged = "decision " + strconv.Itoa(i) + ": expected g" + strconv.Itoa(d.G) + " at " + d.Site + " (" + d.Op + "), g" + strconv.Itoa(d.G) + " does not exist"
		return nil
	}
	g := s.gs[d.G]
	for k, c := range cands {
		if c == g {
			if list[k].Site != d.Site || list[k].Op != d.Op {
				s.diverged = "decision " + strconv.Itoa(i) + ": expected g" + strconv.Itoa(d.G) + " at " + d.Site + " (" + d.Op + "), g" + strconv.Itoa(d.G) + " is at " + list[k].Site + " (" + list[k].Op + ")"
				return nil
			}
			return g
		}
	}
	what := "is not enabled"
	if g.exited {
		what = "has exited"
	} else if g.parked {
		what = "is blocked at " + s.shortSiteOf(g) + " (" + g.req.op.String() + ")"
	}
	s.diverged = "decision " + strconv.Itoa(i) + ": expected g" + strconv.Itoa(d.G) + " at " + d.Site + " (" + d.Op + "), g" + strconv.Itoa(d.G) + " " + what
	return nil
}

// choose picks among n alternatives, following the replayed choice when
// there is one.
//
//go:norace
func (s *sched) choose(n int, recorded func(Decision) *int) int {
	if s.replay != nil && s.diverged == "" && s.steps < len(s.replay.Decisions) {
		if p := recorded(s.replay.Decisions[s.steps]); p != nil && *p >= 0 && *p < n {
			return *p
		}
		s.diverged = "decision " + strconv.Itoa(s.steps) + ": recorded choice is not available"
	}
	return s.strat.Choose(n, s.steps)
}

func choiceOf(d Decision) *int { return d.Choice }

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

// conditional: may an operation of this kind block (enabled judges it)?
func conditional(op opKind) bool {
	switch op {
	case opLock, opWLock, opRLock, opLockerLock, opWGWait, opOnce, opCondPark,
		opRunWait, opParallel, opParallelWait, opSleep, opSend, opRecv, opSelect:
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
	if s.waiters == nil {
		s.waiters = make(map[chanDir]int32, 64)
	}
	if n := s.waiters[k] + d; n > 0 {
		s.waiters[k] = n
	} else {
		delete(s.waiters, k)
	}
}

//go:norace
func (s *sched) mutex(p unsafe.Pointer) *mutexState {
	m := s.mutexes[p]
	if m == nil {
		m = s.slabs.mutexes.next()
		m.owner = -1
		s.mutexes[p] = m
	}
	return m
}

//go:norace
func (s *sched) rw(p unsafe.Pointer) *rwState {
	m := s.rws[p]
	if m == nil {
		m = s.slabs.rws.next()
		m.writer, m.pending = -1, -1
		s.rws[p] = m
	}
	return m
}

//go:norace
func (s *sched) wg(p unsafe.Pointer) *int {
	w := s.wgs[p]
	if w == nil {
		w = s.slabs.wgs.next()
		s.wgs[p] = w
	}
	return w
}

//go:norace
func (s *sched) once(p unsafe.Pointer) *onceState {
	o := s.onces[p]
	if o == nil {
		o = s.slabs.onces.next()
		o.runner = -1
		s.onces[p] = o
	}
	return o
}

//go:norace
func (s *sched) cond(p unsafe.Pointer) *condState {
	c := s.conds[p]
	if c == nil {
		c = s.slabs.conds.next()
		s.conds[p] = c
	}
	return c
}

//go:norace
func (s *sched) chanOf(p unsafe.Pointer, rv reflect.Value) *chanState {
	c := s.chans[p]
	if c == nil {
		c = s.slabs.chans.next()
		c.rv = rv
		s.chans[p] = c
	}
	return c
}

// lockerKind resolves a sync.Locker to the shadow object it denotes.
func lockerKind(l sync.Locker) (op opKind, p unsafe.Pointer) {
	switch m := l.(type) {
	case *sync.Mutex:
		return opLock, unsafe.Pointer(m)
	case *sync.RWMutex:
		return opWLock, unsafe.Pointer(m)
	}
	if l == nil {
		return opNone, nil
	}
	v := reflect.ValueOf(l)
	if v.Kind() == reflect.Pointer && v.Type().String() == "*sync.rlocker" {
		return opRLock, v.UnsafePointer()
	}
	return opNone, nil
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
		return *s.wg(r.obj) <= 0
	case opOnce:
		o := s.once(r.obj)
		return o.state != 1
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
			return n < k
		}
		return n > 0
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
			// first in, first out (those parked at the same time in
			// the order they were made).
			for i := len(out) - 1; i > 0 && (out[i].parkAt < out[i-1].parkAt || out[i].parkAt == out[i-1].parkAt && out[i].id < out[i-1].id); i-- {
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
		for i := range cs {
			if cs[i].ptr == p && cs[i].send == send {
				return i
			}
		}
	}
	return -2
}

// decide lets g perform its operation, updating the shadow state, and
// records the decision.
//
//go:norace
func (s *sched) decide(g *gstate) {
	d := Decision{G: g.id, Op: g.req.op.String(), Obj: s.objOf(&g.req)}
	if s.needSites() {
		d.Site = s.shortSiteOf(g)
	}
	s.decPCs = append(s.decPCs, g.req.pcs)
	rep := reply{mode: mRun}
	release := true
	var joined *gstate // the partner of a hand-off
	r := &g.req
	switch r.op {
	case opGo:
		c := s.newG()
		rep.child = c
		s.running = append(s.running, c)
	case opRun:
		c := s.newG()
		c.parent = g
		rep.child = c
		s.running = append(s.running, c)
	case opLock, opUnlock, opTryLock, opWLock, opWUnlock, opTryWLock, opRLock, opRUnlock, opTryRLock:
		release = s.applyLock(g, r.op, r.obj, &rep)
	case opLockerLock, opLockerUnlock:
		op, p := lockerKind(r.locker)
		if op != opNone {
			if r.op == opLockerUnlock {
				op = unlockOf(op)
			}
			release = s.applyLock(g, op, p, &rep)
		}
	case opWGAdd:
		*s.wg(r.obj) += r.delta
	case opOnce:
		o := s.once(r.obj)
		if o.state == 0 {
			o.state, o.runner = 1, g.id
			rep.ok = true
		}
	case opOnceDone:
		o := s.once(r.obj)
		o.state = 2
	case opCondWait:
		c := s.cond(r.obj)
		c.waiters = append(c.waiters, g)
		g.signal = false
		if op, p := lockerKind(r.locker); op != opNone {
			s.applyLock(g, unlockOf(op), p, &rep)
		}
	case opCondPark:
		g.signal = false
	case opSignal:
		c := s.cond(r.obj)
		w := -1
		if len(c.waiters) > 0 {
			k := s.choose(len(c.waiters), choiceOf)
			h := c.waiters[k]
			c.waiters = append(c.waiters[:k:k], c.waiters[k+1:]...)
			h.signal = true
			w = h.id
		}
		d.Choice = &w
	case opBroadcast:
		c := s.cond(r.obj)
		for _, h := range c.waiters {
			h.signal = true
		}
		c.waiters = nil
	case opClose:
		if r.obj != nil {
			s.chanOf(r.obj, r.rv).closed = true
		}
	case opSend, opRecv:
		if p := s.pairFor(g, r.obj, r.rv, r.op == opSend, &d); p != nil {
			s.running = append(s.running, p)
			joined = p
		}
	case opSelect:
		var ready []int
		for i, c := range r.cases {
			if s.chanReady(g, c.ptr, c.rv, c.send) {
				ready = append(ready, i)
			}
		}
		if len(ready) > 0 && r.hasDefault && s.lateOnly(g, r.cases, ready) {
			// Every ready case waits for a partner that may not have
			// reached its operation yet: default is a choice too.
			ready = append(ready, -1)
		}
		k := -1
		if len(ready) > 0 {
			k = ready[s.choose(len(ready), choiceOf2(ready))]
		}
		rep.choice = k
		d.Choice = &k
		if k < 0 && hasRecv(r.cases) {
			// Default, unless a receive is ready for a reason the
			// shadow cannot see (a send or close outside control).
			rep.mode = mPollDefault
		}
		if k >= 0 {
			c := r.cases[k]
			if p := s.pairFor(g, c.ptr, c.rv, c.send, &d); p != nil {
				s.running = append(s.running, p)
				rep.adapter = true
				joined = p
			}
		}
	case opTimerNew, opTimerStop, opTimerReset, opTickerStop, opTickerReset:
		s.applyTimer(g, &rep)
	}
	if spinning(r, rep) {
		if s.spinRun == 0 {
			s.spinStart = time.Now()
		}
		s.spinRun++
		if r.op == opNow || r.readNow {
			s.spinNow = true
		}
		if s.freshLoad(r) {
			s.sameRun = 0
		} else {
			s.sameRun++
		}
	} else {
		s.spinRun = 0
		s.sameRun = 0
		s.spinClock = 0
		forgetLoads(s.loads)
		s.nowStep = 0
		s.spinNow = false
	}
	s.record(d)
	s.last = g.id
	if _, ok := s.strat.(Plain); ok && joined != nil && joined.parkSeq > g.parkSeq {
		// Of the two sides of a hand-off, the runtime runs on the one
		// that came second (it finds the other parked and wakes it):
		// so does the unperturbed schedule.
		s.last = joined.id
	}
	if release || joined != nil || rep.child != nil {
		// The one that runs on reaches its next operation first, the
		// other party (a partner woken, a goroutine started) after it,
		// as on one processor: the order of hand-offs above does not
		// depend on which of the two the OS ran sooner.
		s.arrivals++
		s.gs[s.last].parkSeq = s.arrivals
		other := joined
		if s.last != g.id {
			other = g
		}
		if other == nil {
			other = rep.child
		}
		if other != nil {
			s.arrivals++
			other.parkSeq = s.arrivals
		}
	}
	if !release {
		return
	}
	s.unpark(g)
	g.rep = rep
	s.running = append(s.running, g)
	if joined == nil {
		g.wake()
		return
	}
	// The two parties of a hand-off complete the channel operation
	// together, then go on one after the other, the one that runs on
	// first: code between their points that the rewriter does not see (a
	// context's Err and its cancel) must not run in an order the
	// decisions do not fix. The second goes on when the first arrives or
	// is found blocked outside control (collect).
	n := len(s.running)
	second := joined
	if s.last == g.id {
		s.running[n-2], s.running[n-1] = g, joined
	} else {
		second = g
	}
	second.held = true
	second.rep.gate = true
	joined.wake()
	g.wake()
}

// record appends a decision; with Config.Trace it is also written at once
// to standard error as "interleave: decision <n> <json>", so that the
// decisions of a run that crashes the process can still be replayed.
//
//go:norace
func (s *sched) record(d Decision) {
	s.decisions = append(s.decisions, d)
	if s.cfg.Trace {
		d = s.sitedDecision(len(s.decisions) - 1)
		line := MarkerDecision + strconv.Itoa(s.steps) + ` {"g":` + strconv.Itoa(d.G)
		if d.Site != "" {
			line += `,"site":` + strconv.Quote(d.Site)
		}
		line += `,"op":` + strconv.Quote(d.Op)
		if d.Choice != nil {
			line += `,"choice":` + strconv.Itoa(*d.Choice)
		}
		if d.Partner != nil {
			line += `,"partner":` + strconv.Itoa(*d.Partner)
		}
		if d.Obj != 0 {
			line += `,"obj":` + strconv.Itoa(d.Obj)
		}
		rawStderr(line + "}\n")
	}
	s.steps++
}

// objOf numbers the object of a request in the order the run first met
// it (Decision.Obj); 0 when the request has none.
//
//go:norace
func (s *sched) objOf(r *request) int {
	p := r.obj
	if r.op == opLockerLock || r.op == opLockerUnlock || (p == nil && r.locker != nil) {
		_, p = lockerKind(r.locker)
	}
	if p == nil {
		return 0
	}
	if s.objs == nil {
		s.objs = map[unsafe.Pointer]int{}
	}
	n, ok := s.objs[p]
	if !ok {
		n = len(s.objs) + 1
		s.objs[p] = n
	}
	return n
}

// MarkerDecision starts a traced decision line (Config.Trace).
const MarkerDecision = "interleave: decision "

// choiceOf2 maps a recorded select case index back to its position in
// ready.
// lateOnly: are the ready cases of g's select ready only through a hand-off
// with goroutines parked at the current virtual time? Each may be at its
// operation's scheduling point, not yet in the channel's queue (one parked
// at an earlier time is: it blocked there, see pairFor).
//
//go:norace
func (s *sched) lateOnly(g *gstate, cs []caseReq, ready []int) bool {
	for _, i := range ready {
		c := cs[i]
		if s.chanOf(c.ptr, c.rv).closed || closedForReal(c.ptr) || waiterForReal(c.ptr, c.send) {
			return false
		}
		if _, k := lenCap(c.ptr, c.rv); k > 0 {
			return false
		}
		ps := s.partners(g, c.ptr, c.send)
		if len(ps) == 0 {
			return false
		}
		for _, h := range ps {
			if h.parkAt < s.now {
				return false
			}
		}
	}
	return true
}

func choiceOf2(ready []int) func(Decision) *int {
	return func(d Decision) *int {
		if d.Choice == nil {
			return nil
		}
		for i, k := range ready {
			if k == *d.Choice {
				return &i
			}
		}
		bad := -1
		return &bad
	}
}

func unlockOf(op opKind) opKind {
	switch op {
	case opLock:
		return opUnlock
	case opWLock:
		return opWUnlock
	case opRLock:
		return opRUnlock
	}
	return opNone
}

// pairFor releases the partner of an unbuffered operation, if one is
// needed, and returns it.
//
//go:norace
func (s *sched) pairFor(g *gstate, p unsafe.Pointer, rv reflect.Value, send bool, d *Decision) *gstate {
	if p == nil {
		return nil
	}
	c := s.chanOf(p, rv)
	if c.closed || rv.Cap() > 0 {
		return nil
	}
	ps := s.partners(g, p, send)
	if len(ps) == 0 {
		return nil
	}
	// The runtime pairs the waiter that queued first: one parked at an
	// earlier virtual time blocked there first. Those parked at the same
	// time may have queued in either order (a replay may pick any).
	n := 1
	for n < len(ps) && ps[n].parkAt == ps[0].parkAt {
		n++
	}
	if s.replay != nil {
		n = len(ps)
	}
	h := ps[s.choose(n, partnerIdx(ps[:n]))]
	id := h.id
	d.Partner = &id
	prep := reply{mode: mRun}
	if k := caseFor(h, p, !send); k >= 0 {
		prep.choice = k
		prep.adapter = true
	}
	s.unpark(h)
	h.rep = prep // decide wakes it
	return h
}

func partnerIdx(ps []*gstate) func(Decision) *int {
	return func(d Decision) *int {
		if d.Partner == nil {
			return nil
		}
		for i, h := range ps {
			if h.id == *d.Partner {
				return &i
			}
		}
		bad := -1
		return &bad
	}
}

// applyLock updates the shadow of a lock operation. It returns false when
// g must stay parked (a writer that now waits for the readers to leave).
//
//go:norace
func (s *sched) applyLock(g *gstate, op opKind, p unsafe.Pointer, rep *reply) bool {
	switch op {
	case opLock:
		s.mutex(p).owner = g.id
	case opUnlock:
		m := s.mutex(p)
		if m.owner < 0 {
			s.fatal(g, "fatal error: sync: unlock of unlocked mutex")
			rep.mode = mSkip
		}
		m.owner = -1
	case opTryLock:
		m := s.mutex(p)
		if m.owner < 0 {
			m.owner = g.id
			rep.ok = true
		}
	case opWLock:
		m := s.rw(p)
		if m.readers > 0 {
			m.pending = g.id
			return false
		}
		m.writer, m.pending = g.id, -1
	case opWUnlock:
		m := s.rw(p)
		if m.writer < 0 {
			s.fatal(g, "fatal error: sync: Unlock of unlocked RWMutex")
			rep.mode = mSkip
		}
		m.writer = -1
	case opTryWLock:
		m := s.rw(p)
		if m.writer < 0 && m.pending < 0 && m.readers == 0 {
			m.writer = g.id
			rep.ok = true
		}
	case opRLock:
		s.rw(p).readers++
	case opRUnlock:
		m := s.rw(p)
		if m.readers <= 0 {
			s.fatal(g, "fatal error: sync: RUnlock of unlocked RWMutex")
			rep.mode = mSkip
		} else {
			m.readers--
		}
	case opTryRLock:
		m := s.rw(p)
		if m.writer < 0 && m.pending < 0 {
			m.readers++
			rep.ok = true
		}
	}
	return true
}

//go:norace
func (s *sched) fatal(g *gstate, msg string) {
	if s.fail != nil || s.aborting {
		return
	}
	f := &failure{kind: "fatal", msg: msg, site: s.siteOf(g)}
	s.fail = f
}

// applyTimer performs a timer operation on the virtual clock.
//
//go:norace
func (s *sched) applyTimer(g *gstate, rep *reply) {
	r := &g.req
	switch r.op {
	case opTimerNew:
		s.tseq++
		vt := &vtimer{kind: r.timerKind, seq: s.tseq, deadline: s.after(r.d), active: true, fn: r.fn, hb: new(uint32)}
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
		rep.ok = vt.active
		vt.active = false
		s.drain(vt.ch)
		if r.op == opTimerReset {
			vt.active = true
			vt.deadline = s.after(r.d)
			rep.hb = vt.hb
		}
	case opTickerStop, opTickerReset:
		vt := s.tickers[(*time.Ticker)(r.obj)]
		if vt == nil {
			rep.mode = mSkip
			return
		}
		vt.active = false
		s.drain(vt.ch)
		if r.op == opTickerReset {
			vt.active = true
			vt.period = r.d
			vt.deadline = s.after(r.d)
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
	if limit := s.stepLimit(); waitChange(w, 0, limit) == 0 {
		s.watchdogAfter(nil, limit)
	}
}

func helperMain(f func(), w *uint32) {
	f()
	bump(w)
}

// fireTimers advances the virtual clock to the earliest pending deadline and
// fires what is due. It reports whether there was anything to fire.
//
//go:norace
func (s *sched) fireTimers() bool {
	next, found := s.nextDeadline()
	if !found {
		return false
	}
	if next > s.now {
		s.now = next
	}
	due := []*vtimer{}
	keep := s.tq[:0]
	for _, vt := range s.tq {
		if vt.active && vt.deadline <= s.now {
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
		switch vt.kind {
		case tkTicker:
			vt.deadline = after(vt.deadline, vt.period)
			if vt.deadline <= s.now {
				vt.deadline = s.after(vt.period)
			}
		default:
			vt.active = false
		}
		if vt.kind == tkFunc {
			c := s.newG()
			s.running = append(s.running, c)
			fn, hb := vt.fn, vt.hb
			go childMain(c, func() { fired(hb); fn() })
			continue
		}
		ch, v, hb := vt.ch, s.base.Add(s.now), vt.hb
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

// poll lets goroutines blocked on channels try their operation without
// blocking, in case a partner outside the scheduler's view (a goroutine or
// a close in uninstrumented code) can complete it, over about 55ms of wall
// time. It reports progress.
//
//go:norace
func (s *sched) poll() bool {
	delay := 50 * time.Microsecond
	for round := 0; round < 7; round++ {
		if s.probe(true) {
			return true
		}
		nap(delay)
		delay *= 3
	}
	return false
}

// sendAndWait hands the parked g a reply in the given mode and waits for
// it to arrive again; past the step limit the watchdog ends the process.
//
//go:norace
func (s *sched) sendAndWait(g *gstate, mode uint8) {
	g.rep = reply{mode: mode}
	g.wake()
	s.waitingOn = g
	limit := s.stepLimit()
	v := waitChange(&g.arrSeq, g.arrSeen, limit)
	if v == g.arrSeen {
		s.watchdogAfter(g, limit)
	}
	g.arrSeen = v
	s.waitingOn = nil
}

// probe is one round of poll: every goroutine blocked on channels tries
// once. It reports progress (or, when idle, that one of them is ready by
// now).
//
//go:norace
func (s *sched) probe(idle bool) bool {
	for _, g := range s.gs {
		if !g.parked || g.exited || !(g.req.op == opRecv || g.req.op == opSend || (g.req.op == opSelect && len(g.req.cases) > 0)) {
			continue
		}
		if s.enabled(g) {
			if idle {
				return true // became ready meanwhile (closed outside control)
			}
			continue
		}
		s.unpark(g)
		s.sendAndWait(g, mPoll)
		if g.req.op == opExit || !g.req.pollFailed {
			s.arrived(g)
			return true
		}
		s.park(g)
	}
	return false
}

// settle gives channels fed outside control a chance before the clock
// moves or a deadlock is declared: while a goroutine waits on a channel and
// a goroutine the scheduler does not control is running or runnable (a
// dependency's goroutine that has just been started, the standard
// library's), the waiting goroutines are probed again, for up to
// settleWait. It reports progress.
//
//go:norace
func (s *sched) settle() bool {
	waiting := false
	for _, g := range s.gs {
		if g.parked && !g.exited && (g.req.op == opRecv || g.req.op == opSend || g.req.op == opSelect) {
			waiting = true
			break
		}
	}
	if !waiting {
		return false
	}
	start := time.Now()
	pause := 10 * time.Microsecond
	for {
		if s.probe(true) {
			return true
		}
		if time.Since(start) >= settleWait {
			return false
		}
		if !s.foreignBusy() {
			// Quiet now: one last probe sees what it did meanwhile.
			return s.probe(true)
		}
		nap(pause)
		if pause < time.Millisecond {
			pause *= 2
		}
	}
}

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
// testify's Eventually ticking on the real clock)?
//
//go:norace
func (s *sched) waitingOutside() bool {
	for _, g := range s.outside {
		if g.inWait && !g.blockedReal {
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
// dependency's mock clock: its Sleep receives on a channel its Add feeds),
// with nothing in the process running, in real I/O or in a real sleep?
// Then only the program can wake them, and the clock need not wait real
// time for them before it moves (1 ms of a mock clock's nap per tick made
// a 30-second test of a rate limiter take 15 s). Goroutines waiting in the
// standard library or a kept test framework (testify's Eventually, goleak)
// may wait for a real timer: the clock waits for them as before.
//
//go:norace
func (s *sched) virtualWait() bool {
	some := false
	for _, g := range s.outside {
		if g.blockedReal {
			continue
		}
		if !g.inVirtual {
			return false
		}
		some = true
	}
	if !some {
		return false
	}
	dump := dumpBuf[:runtime.Stack(dumpBuf, true)]
	for len(dump) > 0 {
		block := dump
		if j := bytes.Index(dump, []byte("\n\n")); j >= 0 {
			block, dump = dump[:j], dump[j+2:]
		} else {
			dump = nil
		}
		if !bytes.HasPrefix(block, []byte("goroutine ")) {
			continue
		}
		rest := block[len("goroutine "):]
		var id uint64
		sp := 0
		for sp < len(rest) && '0' <= rest[sp] && rest[sp] <= '9' {
			id = id*10 + uint64(rest[sp]-'0')
			sp++
		}
		if id == s.sgid || !bytes.HasPrefix(rest[sp:], []byte(" [")) {
			continue
		}
		if g := s.tab.lookup(id); g != nil && g.parked && !g.outside {
			continue // at its turn's wait (spinning in it is no activity)
		}
		state := rest[sp+2:]
		if j := bytes.IndexAny(state, ",]"); j >= 0 {
			state = state[:j]
		}
		switch string(state) {
		case "running", "runnable", "preempted", "IO wait", "sleep":
			return false
		case "syscall":
			if !handoffStack(block) {
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
		fn := line
		if j := bytes.LastIndexByte(fn, '('); j > 0 {
			fn = fn[:j]
		}
		return virtualClockFunc(fn)
	}
	return false
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

// blockForReal releases the goroutines blocked on a channel operation the
// shadow cannot complete to perform it for real, blocking, while a
// goroutine outside control may be their partner: a partner that only
// polls (a select with default run by testify's Eventually on its own
// goroutine) never finds a controlled goroutine waiting in the
// scheduler. They wait outside control until the operation completes
// (they come back at their next scheduling point) or recallBlocked takes
// them back. It reports whether it released any.
//
//go:norace
func (s *sched) blockForReal() bool {
	any := false
	// In the order they parked: the channels queue them as they block.
	gs := s.partBuf[:0]
	for _, g := range s.gs {
		if !g.parked || g.exited || !realBlockable(&g.req) || s.enabled(g) {
			continue
		}
		gs = append(gs, g)
		for i := len(gs) - 1; i > 0 && gs[i].parkAt < gs[i-1].parkAt; i-- {
			gs[i], gs[i-1] = gs[i-1], gs[i]
		}
	}
	s.partBuf = gs[:0]
	for _, g := range gs {
		g.wasReal, g.realOp, g.realAt = true, g.req.op, pcsHash(&g.req.pcs)
		s.unpark(g)
		g.blockedReal = true
		g.recall = make(chan struct{})
		g.rep = reply{mode: mBlock, recall: g.recall}
		g.outside = true
		g.outsideAt = time.Now()
		s.outside = append(s.outside, g)
		g.wake()
		any = true
		// Queued before the next is released (briefly: the order is
		// kept when it blocks at once, as it should).
		for i := 0; i < 20 && !s.blockedOutside(g); i++ {
			nap(50 * time.Microsecond)
		}
	}
	return any
}

// realBlockable: can the pending operation be performed for real,
// blocking (a send or receive on a channel, a select of receives)?
func realBlockable(r *request) bool {
	switch r.op {
	case opSend, opRecv:
		return r.obj != nil
	case opSelect:
		return !r.hasDefault && hasRecv(r.cases) && !hasSend(r.cases)
	}
	return false
}

func hasSend(cs []caseReq) bool {
	for _, c := range cs {
		if c.send && c.ptr != nil {
			return true
		}
	}
	return false
}

// recallBlocked takes back the goroutines blockForReal released: they
// come back parked at the same operation, or past it when it completed
// meanwhile. It reports whether there were any.
//
//go:norace
func (s *sched) recallBlocked() bool {
	var back []*gstate
	for _, g := range s.outside {
		if g.blockedReal {
			ch := g.recall
			s.viaHelper(func() { close(ch) })
			g.blockedReal, g.recall = false, nil
			back = append(back, g)
		}
	}
	if len(back) == 0 {
		return false
	}
	keep := s.outside[:0]
	for _, g := range s.outside {
		recalled := false
		for _, h := range back {
			recalled = recalled || h == g
		}
		if !recalled {
			keep = append(keep, g)
			continue
		}
		if v := waitChange(&g.arrSeq, g.arrSeen, outsideSlice); v != g.arrSeen {
			g.arrSeen = v
			g.outside = false
			s.progress++
			s.arrived(g)
			continue
		}
		keep = append(keep, g) // it went on and is outside control now
	}
	s.outside = keep
	return true
}

// settleWait bounds settle.
const settleWait = 100 * time.Millisecond

// paceForeign runs before the clock jumps to the next timer with nothing
// controlled able to run. While a goroutine the scheduler does not
// control (one a dependency started: a server starting up, a client's
// read loop) is running or in a system call, the clock moves no faster
// than real time: it waits as long as the jump (up to outsideWait) or
// until they are all blocked. While some are only in network I/O, which
// may be a message in flight, it waits up to ioGrace. Without it a
// readiness poll (sleep 25ms, check, 400 times) ran out of virtual time
// before the server it waited for had opened its listener. It reports
// whether a channel became ready meanwhile (the caller decides again).
//
//go:norace
func (s *sched) paceForeign() bool {
	next, ok := s.nextDeadline()
	if !ok || next <= s.now {
		return false
	}
	d := next - s.now
	if d > outsideWait {
		d = outsideWait
	}
	// A stack dump per jump is costly: as long as the number of
	// goroutines stays what it was when none was active, only every
	// quietEvery-th jump looks.
	n := runtime.NumGoroutine()
	if n == s.quietN && s.quietSkips < quietEvery {
		s.quietSkips++
		return false
	}
	s.quietN, s.quietSkips = -1, 0
	start := time.Now()
	pause := 50 * time.Microsecond
	waited := false
	for {
		busy, io := s.foreignActive()
		if !busy && !io {
			if !waited {
				s.quietN = n
			}
			break
		}
		limit := d
		if !busy && limit > ioGrace {
			limit = ioGrace
		}
		left := limit - time.Since(start)
		if left <= 0 {
			break
		}
		if pause > left {
			pause = left
		}
		nap(pause)
		waited = true
		if pause < 5*time.Millisecond {
			pause *= 2
		}
	}
	return waited && s.probe(true)
}

// quietEvery: see paceForeign.
const quietEvery = 16

// ioGrace is how long paceForeign waits for goroutines outside control
// that are only in network I/O.
const ioGrace = 20 * time.Millisecond

// foreignActive: is a goroutine other than the scheduler and the
// controlled ones running, runnable or in a system call (busy), or in
// network I/O (io)? A goroutine waiting for signals (os/signal's loop,
// in a system call for good) is neither.
//
//go:norace
func (s *sched) foreignActive() (busy, io bool) {
	if s.sgid == 0 {
		s.sgid = goid()
	}
	dump := dumpBuf[:runtime.Stack(dumpBuf, true)]
	for len(dump) > 0 {
		block := dump
		if j := bytes.Index(dump, []byte("\n\n")); j >= 0 {
			block, dump = dump[:j], dump[j+2:]
		} else {
			dump = nil
		}
		rest, ok := bytes.CutPrefix(block, []byte("goroutine "))
		if !ok {
			continue
		}
		sp := bytes.IndexByte(rest, ' ')
		if sp < 0 {
			continue
		}
		st := rest[sp:]
		isIO := bytes.HasPrefix(st, []byte(" [IO wait"))
		if !isIO && !bytes.HasPrefix(st, []byte(" [running")) && !bytes.HasPrefix(st, []byte(" [runnable")) &&
			(!bytes.HasPrefix(st, []byte(" [syscall")) || bytes.Contains(st, []byte("signal_recv"))) {
			continue // blocked, or waiting for signals for good
		}
		id, err := strconv.ParseUint(string(rest[:sp]), 10, 64)
		if err != nil || id == s.sgid || s.tab.lookup(id) != nil || s.exitedG(id) {
			continue
		}
		if !isIO {
			return true, io
		}
		io = true
	}
	return false, io
}

// exitedG: is id the runtime goroutine of a controlled goroutine that has
// ended (it may still be finishing)?
//
//go:norace
func (s *sched) exitedG(id uint64) bool {
	for _, g := range s.gs {
		if g.gid == id && g.exited {
			return true
		}
	}
	return false
}

// foreignBusy reports whether a goroutine other than the scheduler and
// the controlled ones is running or runnable.
//
//go:norace
func (s *sched) foreignBusy() bool {
	if s.sgid == 0 {
		s.sgid = goid()
	}
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	dump := string(buf[:n])
	for len(dump) > 0 {
		line := dump
		if i := strings.IndexByte(dump, '\n'); i >= 0 {
			line, dump = dump[:i], dump[i+1:]
		} else {
			dump = ""
		}
		rest, ok := strings.CutPrefix(line, "goroutine ")
		if !ok {
			continue
		}
		sp := strings.IndexByte(rest, ' ')
		if sp < 0 {
			continue
		}
		id, err := strconv.ParseUint(rest[:sp], 10, 64)
		if err != nil || id == s.sgid || s.tab.lookup(id) != nil {
			continue
		}
		if strings.HasPrefix(rest[sp:], " [running") || strings.HasPrefix(rest[sp:], " [runnable") {
			return true
		}
	}
	return false
}

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
		// real, faster each turn. With a timer pending, at most half the
		// way to it per turn, and it fires when the clock is near: the
		// loop's own deadline, which no timer marks, may come first.
		if s.nowStep == 0 {
			s.nowStep = time.Millisecond
		}
		step, timer := s.nowStep, false
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
		if !timer && s.clockHang(step) {
			return true
		}
		if s.nowStep < time.Second || timer && s.nowStep < time.Hour {
			s.nowStep *= 2
		}
		s.spinRun = 0
		return false
	}
	if s.fireTimers() {
		s.spinRun = 0
		return true
	}
	if s.spinSame() < livelockPause {
		return false
	}
	for _, g := range s.gs {
		if g.parked && !g.exited && s.enabled(g) && !spinOp(&g.req) {
			return false // someone could make progress if chosen
		}
	}
	if s.spinSame() >= livelockSpins && time.Since(s.spinStart) >= livelockWall {
		f := &failure{kind: "fatal", msg: "livelock: " + strconv.Itoa(s.spinRun) + " scheduling steps in a row only spun (Gosched, atomic loads, select default, failed TryLock, time.Now), the last " + strconv.Itoa(s.sameRun) + " rereading the same words with the same values, with no timer pending and no goroutine able to do anything else"}
		s.collectStates(f)
		f.site = pickSite(f.gs)
		s.fail = f
		return true
	}
	// Give goroutines and timers outside control (a dependency's real
	// clock) real time to end it.
	nap(livelockNap)
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
			s.spinClock = 0
			return false
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

// loadKey is an atomic load's address and the value it found.
type loadKey struct {
	addr unsafe.Pointer
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

// forgetLoads empties m, keeping its room (the runtime is built at the
// module's language version: no clear).
func forgetLoads(m map[loadKey]struct{}) {
	for k := range m {
		delete(m, k)
	}
}

// loadsMax bounds the loads a spin run remembers: a scan over more words
// than that is progress anyway.
const loadsMax = 1 << 12

// freshLoad: is r an atomic load of an address, or of a value there, that
// the current spin run has not read yet? (A load whose address the
// rewrite could not name is not.)
//
//go:norace
func (s *sched) freshLoad(r *request) bool {
	if r.op != opAtomicLoad || r.addr == nil {
		return false
	}
	k := loadKey{r.addr, r.val}
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
// outside control get real time; livelockSpins of them over at least
// livelockWall of wall time are a livelock. Both counts are of decisions
// that read nothing new (sameRun) as well.
const (
	spinAdvance   = 64
	livelockPause = 10000
	livelockSpins = 15000
	livelockWall  = 3 * time.Second
	livelockNap   = 40 * time.Millisecond // per spinAdvance decisions after livelockPause
	// livelockClock: a loop reading the clock with nothing else possible
	// (clockHang); reached in about 8000 decisions, within the step bound.
	livelockClock = 2 * time.Minute
)

// kindInconclusive marks a schedule stopped by a bound: not a failure.
const kindInconclusive = "inconclusive"

// spinOp: is the pending operation one a polling loop repeats without
// changing anything (a select counts when it has a default)?
func spinOp(r *request) bool {
	switch r.op {
	case opYield, opAtomicLoad, opNow, opTryLock, opTryWLock, opTryRLock:
		return true
	case opSelect:
		return r.hasDefault
	}
	return false
}

// spinning: did the decided operation only spin (a yield, a load, a
// select that took default, a TryLock that failed)?
func spinning(r *request, rep reply) bool {
	switch r.op {
	case opYield, opAtomicLoad, opNow:
		return true
	case opTryLock, opTryWLock, opTryRLock:
		return !rep.ok
	case opSelect:
		return rep.choice < 0
	}
	return false
}

func hasRecv(cs []caseReq) bool {
	for _, c := range cs {
		if !c.send && c.ptr != nil {
			return true
		}
	}
	return false
}

// blockedFailure ends the schedule with nothing left to do: a deadlock
// while the test runs, a leak after it returned. A leak is of two kinds,
// as in the runtime's goroutineleak profile: every goroutine left is
// blocked forever (nothing enabled, no timer to fire), or some are still
// running 2*postTestSteps decisions after the test returned, the last
// postTestSteps of them fair (running says so: spinning, sleeping in a
// loop, polling), which the message tells by LeakRunning.
//
//go:norace
func (s *sched) blockedFailure(running bool) {
	f := &failure{}
	s.collectStates(f)
	var parts []string
	for _, st := range f.gs {
		g := s.gs[st.ID]
		switch {
		case !g.parked:
			parts = append(parts, "g"+strconv.Itoa(st.ID)+" outside the scheduler")
		case running && (s.enabled(g) || g.req.op == opSleep):
			parts = append(parts, "g"+strconv.Itoa(st.ID)+" running at "+st.Op+" at "+shortSite(st.Site))
		default:
			parts = append(parts, "g"+strconv.Itoa(st.ID)+" blocked on "+st.Op+" at "+shortSite(st.Site))
		}
	}
	if s.testDone {
		f.kind = "leak"
		f.msg = LeakBlocked + strings.Join(parts, "; ")
		if running {
			f.msg = LeakRunning + strconv.Itoa(2*postTestSteps) + " decisions later, the last " + strconv.Itoa(postTestSteps) + " fair: " + strings.Join(parts, "; ")
		}
	} else {
		f.kind = "deadlock"
		f.msg = "deadlock: all goroutines are blocked: " + strings.Join(parts, "; ")
	}
	f.site = pickSite(f.gs)
	s.fail = f
}

// pickSite chooses the failure site among blocked goroutines: the smallest
// site of a goroutine other than the test goroutine, so that the same bug
// gets the same site whatever the interleaving.
func pickSite(gs []GoroutineState) string {
	best := ""
	for _, st := range gs {
		if st.ID == 0 && len(gs) > 1 || st.Site == "" {
			continue
		}
		if best == "" || st.Site < best {
			best = st.Site
		}
	}
	if best == "" && len(gs) > 0 {
		best = gs[0].Site
	}
	return best
}

// collectStates records every live goroutine: its operation, site and stack
// (each parked goroutine is asked to capture its own stack).
//
//go:norace
func (s *sched) collectStates(f *failure) {
	for _, g := range s.gs {
		if g.exited {
			continue
		}
		st := GoroutineState{ID: g.id}
		if g.parked {
			if !g.dumped {
				s.sendAndWait(g, mDump)
				g.dumped = true
			}
			st.Op = g.req.op.String()
			st.Site = s.siteOf(g)
			st.Stack = g.stack
			st.Obj = s.objOf(&g.req)
		} else {
			st.Op = "running"
			if state, stack := realStack(g.gid); state != "" {
				// Outside control: what the runtime says it does.
				st.Op, st.Stack = "running ("+state+")", stack
			}
		}
		f.gs = append(f.gs, st)
	}
}

// realStack returns the runtime's state ("sync.Mutex.Lock", "IO wait")
// and traceback of goroutine gid, from a dump of all goroutines.
func realStack(gid uint64) (state, stack string) {
	if gid == 0 {
		return "", ""
	}
	buf := make([]byte, 1<<20)
	dump := buf[:runtime.Stack(buf, true)]
	h := []byte("goroutine " + strconv.FormatUint(gid, 10) + " [")
	i := bytes.Index(dump, h)
	if i < 0 {
		return "", ""
	}
	block := dump[i:]
	if j := bytes.Index(block, []byte("\n\n")); j >= 0 {
		block = block[:j]
	}
	st := block[len(h):]
	if j := bytes.IndexAny(st, ",]"); j >= 0 {
		st = st[:j]
	}
	return string(st), string(block)
}

// abort starts unwinding every goroutine.
//
//go:norace
func (s *sched) abort() {
	s.aborting = true
}

// abortNext releases one parked goroutine with the abort signal.
//
//go:norace
func (s *sched) abortNext() {
	for ; s.abortFrom < len(s.gs); s.abortFrom++ {
		if g := s.gs[s.abortFrom]; g.parked && !g.exited {
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

// abandon ends the schedule without the goroutines outside control when
// every one of them is blocked there (a connection's read loop in real
// I/O after the test returned, or while the schedule unwinds): as under
// go test, they stay behind, and the driver goes on in a fresh process
// (see leftovers). It reports whether it did.
//
//go:norace
func (s *sched) abandon() bool {
	for _, g := range s.outside {
		if g.blockedReal || !s.blockedOutside(g) {
			return false
		}
	}
	for _, g := range s.outside {
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
	case opWGAdd, opClose, opSignal, opBroadcast, opYield, opAtomic, opAtomicLoad, opNow, opOnceDone,
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
		if c := s.chans[r.obj]; r.obj != nil && (c != nil && c.closed || r.rv.Cap() > 0 && s.enabled(g)) {
			rep.mode = mRun
		}
	}
	s.unpark(g)
	g.rep = rep
	g.wake()
	s.running = append(s.running, g)
}

// cpuNow is processCPU (tests replace it).
var cpuNow = processCPU

// maxStarvedStretch bounds how far starvedMore stretches the step timeout.
const maxStarvedStretch = 6

// starvedMore is how much longer a goroutine computing past the step limit
// is waited for because the machine did not let the process run: the
// process used less CPU time than the limit since the wait began (cpu0).
// A goroutine that really computes forever gets its step timeout's worth
// of CPU, or maxStarvedStretch times the timeout of wall time, never past
// the end of the run (stepLimit).
//
//go:norace
func (s *sched) starvedMore(cpu0, limit time.Duration) time.Duration {
	cpu, ok := cpuNow()
	if !ok || cpu-cpu0 >= s.timeout || limit >= maxStarvedStretch*s.timeout {
		return 0
	}
	more := s.timeout / 4
	if left := s.stepLimit(); left < s.timeout {
		// The end of the run is near: no further than it.
		if left <= minStepLimit {
			return 0
		}
		if left < more {
			more = left
		}
	}
	return more
}

// stepLimit is how long S waits for a released goroutine: the step
// timeout, cut short near the end of the run (Config.Until, else
// Config.Deadline, plus deadlineGrace) so that a stuck schedule is
// reported before the driver's hard stop kills the process without a word.
// (Not Deadline when Until is set: a schedule started just before Deadline
// whose test waits in real time, as testify's Eventually does, would be
// called stuck at once.)
//
//go:norace
func (s *sched) stepLimit() time.Duration {
	limit := s.timeout
	end := s.cfg.Until
	if end.IsZero() {
		end = s.cfg.Deadline
	}
	if !end.IsZero() {
		left := time.Until(end.Add(deadlineGrace))
		if left < minStepLimit {
			left = minStepLimit
		}
		if left < limit {
			limit = left
		}
	}
	return limit
}

// deadlineGrace is how long past Config.Deadline a stuck step is waited
// for; minStepLimit is the least any step is waited for.
const (
	deadlineGrace = 500 * time.Millisecond
	minStepLimit  = 200 * time.Millisecond
)

// watchdog ends the process: a goroutine did not reach its next scheduling
// point within StepTimeout (it is blocked on something the scheduler does
// not control, or computing forever).
//
//go:norace
func (s *sched) watchdog(g *gstate) { s.watchdogAfter(g, s.timeout) }

// watchdogAfter ends the process after waiting waited for g (nil: for one
// of S's helpers). The message names where g is now, read from a dump of
// every goroutine, and whether it is running or blocked.
//
//go:norace
func (s *sched) watchdogAfter(g *gstate, waited time.Duration) {
	buf := make([]byte, 1<<20)
	n := runtime.Stack(buf, true)
	dump := string(buf[:n])
	msg := MarkerWatchdog + "no scheduling progress within " + waited.Round(10*time.Millisecond).String()
	site := ""
	var stuck GoroutineState
	heldBack := false
	if g != nil {
		last := s.siteOf(g)
		site = last
		where := "since " + g.req.op.String() + " at " + shortSite(last)
		if last == "" {
			where = "since its " + g.req.op.String()
		}
		state, now, stack := goroutineAt(dump, g.gid)
		stuck = GoroutineState{ID: g.id, Op: state, Site: now, Stack: stack}
		msg = MarkerWatchdog + "g" + strconv.Itoa(g.id) + " did not reach a scheduling point within " + waited.Round(10*time.Millisecond).String() + " " + where
		if now != "" {
			site = now
			msg += "; it is at " + shortSite(now) + " (" + stuckWhy(state) + ")"
		} else {
			msg += " (blocked outside the scheduler's control, or computing without a scheduling point)"
		}
		if state != "running" && state != "runnable" {
			if held := s.heldBack(g); held != "" {
				msg += ", while " + held + " could not run: it may be waiting for one of them through something the scheduler does not see (io.Pipe, net.Pipe, a lock in uninstrumented code)"
				heldBack = true
			}
		}
	}
	res := s.result()
	res.Outcome = "fatal"
	res.Message = msg
	res.Site = site
	res.Watchdog = waited
	res.HeldBack = heldBack
	if stuck.Site != "" {
		res.Goroutines = append(res.Goroutines, stuck)
	}
	res.Goroutines = append(res.Goroutines, GoroutineState{ID: -1, Op: "all goroutines", Stack: dump})
	watchdogExit(s.index, res)
}

// heldBack lists the controlled goroutines other than g that the
// scheduler kept parked although they could run: while g blocks outside
// the scheduler's view, one of them may be the partner it waits for.
//
//go:norace
func (s *sched) heldBack(g *gstate) string {
	var held []string
	for _, h := range s.gs {
		if h == g || !h.parked || h.exited || !s.enabled(h) {
			continue
		}
		what := h.req.op.String()
		if h.req.op == opStart {
			what = "not started yet"
		} else if site := s.shortSiteOf(h); site != "" {
			what += " at " + site
		}
		held = append(held, "g"+strconv.Itoa(h.id)+" ("+what+")")
	}
	return strings.Join(held, ", ")
}

// goroutineAt finds goroutine gid in a dump of all goroutines and returns
// its state ("running", "IO wait", "chan receive", ...), its first user
// frame as file:line and its part of the dump.
func goroutineAt(dump string, gid uint64) (state, site, stack string) {
	head := "goroutine " + strconv.FormatUint(gid, 10) + " ["
	i := strings.Index(dump, head)
	if i < 0 {
		return "", "", ""
	}
	rest := dump[i+len(head):]
	j := strings.Index(rest, "]")
	if j < 0 {
		return "", "", ""
	}
	state = rest[:j]
	if k := strings.Index(state, ","); k >= 0 {
		state = state[:k] // "IO wait, 2 minutes"
	}
	if k := strings.Index(rest, "\n\n"); k >= 0 {
		rest = rest[:k]
	}
	stack = dump[i:i+len(head)] + rest
	lines := strings.Split(rest, "\n")
	for k := 1; k+1 < len(lines); k++ {
		fn := strings.TrimSpace(lines[k])
		if p := strings.LastIndex(fn, "("); p > 0 {
			fn = fn[:p]
		}
		loc := strings.TrimSpace(lines[k+1])
		if !strings.HasPrefix(lines[k+1], "\t") || !isUserFunc(fn) {
			continue
		}
		if p := strings.LastIndex(loc, " +0x"); p >= 0 {
			loc = loc[:p]
		}
		if stdSrc != "" && strings.HasPrefix(loc, stdSrc) {
			continue // the standard library (os, internal/poll, net)
		}
		return state, loc, stack
	}
	return state, "", stack
}

// stdSrc is the source directory of the standard library, with a trailing
// slash ("" when file names are trimmed), found from a runtime function.
var stdSrc = func() string {
	fn := runtime.FuncForPC(reflect.ValueOf(runtime.Gosched).Pointer())
	if fn == nil {
		return ""
	}
	file, _ := fn.FileLine(fn.Entry())
	dir, ok := strings.CutSuffix(file, "runtime/proc.go")
	if !ok || !strings.HasSuffix(dir, "/") || len(dir) < 2 {
		return ""
	}
	return dir
}()

// stuckWhy explains a goroutine state of a stack dump to the user.
func stuckWhy(state string) string {
	switch state {
	case "running", "runnable":
		return state + ": computing or spinning without a scheduling point"
	case "":
		return "state unknown"
	}
	return state + ": blocked outside the scheduler's control"
}

// siteOf returns file:line (full path) of the first user frame of g's
// pending operation.
//
//go:norace
func (s *sched) siteOf(g *gstate) string {
	for _, pc := range g.req.pcs {
		if pc == 0 {
			break
		}
		if site := s.siteAt(pc); site != "" {
			return site
		}
	}
	return ""
}

// siteAt returns file:line (full path) of pc if it is a user frame, else
// "", remembering the answer.
//
//go:norace
func (s *sched) siteAt(pc uintptr) string {
	site, ok := s.sites[pc]
	if !ok {
		site = userSite(pc)
		s.sites[pc] = site
	}
	return site
}

//go:norace
func (s *sched) shortSiteOf(g *gstate) string { return shortSite(s.siteOf(g)) }

// needSites: does anything read the sites of candidates and decisions as
// they are made (a targeted strategy, a replay, a trace)? Otherwise they
// are resolved when the Result is built: resolving a new call site
// allocates, and a scheduling point must not (tests count allocations).
//
//go:norace
func (s *sched) needSites() bool {
	if s.replay != nil || s.cfg.Trace {
		return true
	}
	_, ok := s.strat.(*Targeted)
	return ok
}

// sitedDecision resolves the Site of decision i and returns it.
//
//go:norace
func (s *sched) sitedDecision(i int) Decision {
	d := &s.decisions[i]
	if d.Site == "" && i < len(s.decPCs) {
		for _, pc := range s.decPCs[i] {
			if pc == 0 {
				break
			}
			if site := s.siteAt(pc); site != "" {
				d.Site = shortSite(site)
				break
			}
		}
	}
	return *d
}

// rtPrefix is this package's import path followed by a dot.
var rtPrefix = func() string {
	pc, _, _, _ := runtime.Caller(0)
	name := runtime.FuncForPC(pc).Name()
	if i := strings.LastIndex(name, "."); i >= 0 {
		name = name[:i]
	}
	// name is "path/rt.glob..func1" style or "path/rt"; cut to the package.
	if i := strings.LastIndex(name, "/"); i >= 0 {
		if j := strings.Index(name[i:], "."); j >= 0 {
			name = name[:i+j]
		}
	}
	return name + "."
}()

// userSite returns "file:line" for a return address outside rt, runtime
// and testing, else "".
func userSite(pc uintptr) string {
	fr, _ := runtime.CallersFrames([]uintptr{pc}).Next()
	if !isUserFrame(fr) {
		return ""
	}
	return fr.File + ":" + strconv.Itoa(fr.Line)
}

// isUserFrame: rt's own test files count as user code (they play the
// program under test in rt's tests).
func isUserFrame(fr runtime.Frame) bool {
	if strings.HasSuffix(fr.File, "_test.go") && strings.HasPrefix(fr.Function, rtPrefix) {
		return true
	}
	return isUserFunc(fr.Function)
}

func isUserFunc(fn string) bool {
	if fn == "" || strings.HasPrefix(fn, rtPrefix) || strings.HasPrefix(fn, "runtime.") ||
		strings.HasPrefix(fn, "testing.") || strings.HasPrefix(fn, "reflect.") {
		return false
	}
	return true
}

// result builds the Result of the schedule so far.
//
//go:norace
func (s *sched) result() Result {
	for ; s.sited < len(s.decisions); s.sited++ {
		s.sitedDecision(s.sited)
	}
	r := Result{Index: s.index, Seed: s.seed, Outcome: "pass", Decisions: append([]Decision(nil), s.decisions...),
		Steps: s.steps, Diverged: s.diverged, Elapsed: time.Since(s.started)}
	if r.Decisions == nil {
		r.Decisions = []Decision{}
	}
	if f := s.fail; f != nil && f.kind == kindInconclusive {
		r.Inconclusive = f.msg
	} else if f != nil {
		r.Outcome, r.Message, r.Site, r.Goroutines = f.kind, f.msg, f.site, f.gs
	}
	return r
}

//go:norace
func (s *sched) finish() {
	if s.replay != nil && s.diverged == "" && s.steps < len(s.replay.Decisions) {
		s.diverged = "the run ended after " + strconv.Itoa(s.steps) + " of the schedule's " + strconv.Itoa(len(s.replay.Decisions)) + " decisions"
	}
	s.res = s.result()
	decBuf.d, decBuf.pcs = s.decisions[:0], s.decPCs[:0]
	s.decisions, s.decPCs = nil, nil
	s.giveShadow()
}

// shadowBuf keeps the shadow maps and slabs from one schedule to the next
// (one schedule runs at a time): made once with room for the objects of
// most tests, so that meeting a new mutex or channel allocates nothing
// inside code a test measures, and a schedule costs no allocation.
var shadowBuf *sched

//go:norace
func (s *sched) takeShadow() {
	b := shadowBuf
	shadowBuf = nil
	if b == nil {
		s.mutexes, s.rws = make(map[unsafe.Pointer]*mutexState, shadowRoom), make(map[unsafe.Pointer]*rwState, shadowRoom)
		s.wgs, s.onces = make(map[unsafe.Pointer]*int, shadowRoom), make(map[unsafe.Pointer]*onceState, shadowRoom)
		s.conds, s.chans = make(map[unsafe.Pointer]*condState, shadowRoom), make(map[unsafe.Pointer]*chanState, shadowRoom)
		s.objs = make(map[unsafe.Pointer]int, 4*shadowRoom)
		s.slabs.mutexes.buf = make([]mutexState, 0, shadowRoom)
		s.slabs.rws.buf = make([]rwState, 0, shadowRoom)
		s.slabs.wgs.buf = make([]int, 0, shadowRoom)
		s.slabs.onces.buf = make([]onceState, 0, shadowRoom)
		s.slabs.conds.buf = make([]condState, 0, shadowRoom)
		s.slabs.chans.buf = make([]chanState, 0, shadowRoom)
		return
	}
	s.mutexes, s.rws, s.wgs, s.onces, s.conds, s.chans, s.objs = b.mutexes, b.rws, b.wgs, b.onces, b.conds, b.chans, b.objs
	s.slabs = b.slabs
}

// giveShadow empties the shadow maps and slabs and keeps them for the
// next schedule.
//
//go:norace
func (s *sched) giveShadow() {
	for k := range s.mutexes {
		delete(s.mutexes, k)
	}
	for k := range s.rws {
		delete(s.rws, k)
	}
	for k := range s.wgs {
		delete(s.wgs, k)
	}
	for k := range s.onces {
		delete(s.onces, k)
	}
	for k := range s.conds {
		delete(s.conds, k)
	}
	for k := range s.chans {
		delete(s.chans, k)
	}
	for k := range s.objs {
		delete(s.objs, k)
	}
	s.slabs.mutexes.reset()
	s.slabs.rws.reset()
	s.slabs.wgs.reset()
	s.slabs.onces.reset()
	s.slabs.conds.reset()
	s.slabs.chans.reset()
	b := &sched{mutexes: s.mutexes, rws: s.rws, wgs: s.wgs, onces: s.onces, conds: s.conds, chans: s.chans, objs: s.objs}
	b.slabs = s.slabs
	shadowBuf = b
}

// spawnCheck keeps unused-import checkers quiet on platforms where testing
// is only referenced from other files.
var _ = (*testing.T)(nil)
