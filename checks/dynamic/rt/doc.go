// Package rt is interleave's controlled scheduler, compiled into the program
// under test through `go test -overlay`.
//
// It imports only the standard library: the rewriter copies these files into
// the user's module as a package of its own, so any other import would have to
// be resolvable from a module we do not control.
//
// # Files
//
// One concern each. The scheduler goroutine (S) and its state:
//   - sched.go: the loop (loop, collect, await, arrived, next) and the sched struct
//   - ops.go: the op vocabulary: opKind, the request a goroutine publishes, the reply
//   - gstate.go: a controlled goroutine's state and its side of a scheduling point (call)
//   - shadow.go: shadow state of locks, WaitGroups, Onces, Conds and channels (applyLock)
//   - enabled.go: the parked goroutines' sets (ready, sleeping, blocked) and enabled
//   - decide.go: decisions: strategy, replay or fair pick, decide, pairFor, record
//   - timers.go: virtual timers and deadlines on S's side (advance, fireTimers)
//   - outside.go: goroutines outside control, found blocked from stack dumps (blockedOutside,
//     virtualWait), waited for and taken back (reclaim, abandon)
//   - foreign.go: foreign parties: probes, blocking for real (blockForReal), paceForeign
//   - condoutside.go: a Cond's Signal and Broadcast made outside control
//   - join.go: goroutines started outside control that join the schedule (joiners)
//   - spin.go: the spin rule and livelocks (spinTurn, clockHang)
//   - failure.go: deadlock, leak and misuse, with the goroutine states they report
//   - abort.go: unwinding a schedule (abortNext, abortArrival)
//   - watchdog.go: the step limit and the watchdog's report
//   - sites.go: call sites of pending operations and decisions, and a
//     failing schedule's call paths (Decision.Path)
//   - targethits.go: a schedule's decisions and preemptions at Config.Targets
//   - goid.go, sema.go, futex_*.go, cputime_*.go, goshed.go: goroutine ids and the
//     goroutine table, waiting for a word to change, semaphores, raw sleeps, CPU time
//   - strategy.go, plain.go: Candidate, Strategy and the strategies
//
// What the rewritten program calls:
//   - api.go: the instrumentation API (goroutines, sync, channels and select, atomics,
//     timers, t.Run, t.Parallel, t.Cleanup, os.Exit)
//   - clock.go: Now, Since, Until and context deadlines on the virtual clock
//   - timerbox.go: virtual timers as *time.Timer values
//   - chanpeek.go: a channel's closed flag and wait queues, read from its header
//   - parallel.go, late.go: t.Parallel's shared bookkeeping; a test's calls after it ended
//   - testctx.go: t.Context() cancelled when the test's function returns
//   - testname.go: t.Name() as go test names the test (the driver's subtest replaced)
//   - runfilter.go: go test's -run for subtests (Config.Run), split and matched level by level
//   - rand.go: math/rand's top-level draws on a stream the schedule's seed fixes
//   - maprange.go: map ranges in an order the schedule's seed fixes
//   - pool.go, pool_race.go, pool_norace.go: sync.Pool emptied at each schedule's start
//   - values.go, numg.go, stack.go: sync methods as values; NumGoroutine and Stack
//     without the tool's goroutines
//
// Driving: driver.go (Main, RunSchedules, RunSchedule, results, the watchdog's exit),
// leftover.go (goroutines a schedule left behind: kept, or a fresh process),
// protocol.go (Config, Schedule, Result and the markers shared with the driver
// process) and embed.go (Source, the files the rewriter copies).
//
// # Model
//
// A schedule runs the test function on goroutine g0 (the goroutine of the
// subtest "schedule-<index>" that RunSchedule/Main create; it gets that
// subtest's *testing.T). Goroutines started through Go, AfterFunc and Run are
// controlled too and numbered 1, 2, ... in creation order. Each API call of a
// controlled goroutine is a scheduling point: the goroutine publishes its
// next operation and parks; a scheduler goroutine (S) waits until every
// goroutine it released has parked again, computes which parked goroutines
// are enabled from shadow state (mutex owners, RWMutex readers/writer and a
// pending writer, which blocks new readers as in Go, WaitGroup counters, Once
// state, Cond wait sets, channel closed flags with len/cap read from the real
// channel and parked partners, the virtual clock), asks the Strategy for one,
// records a Decision and releases it. The chosen goroutine performs the real
// operation, which cannot block. An unbuffered send and its receive are
// released together (Decision.Partner) and S waits for both, and so are a
// buffered send to an empty buffer and the receiver blocked there first,
// and a receive from a full buffer and the sender blocked there first
// (handOff: the runtime hands the value, or the freed slot, to the
// goroutine in the channel's queue); after the
// real operation the second goes on only once the first reached its next
// scheduling point or blocks outside control (gstate.held), so code the
// rewriter does not see (a context's cancel and Err) runs in the order the
// decisions fix.
//
// Hand-offs use plain words and the Go runtime's semaphores (sema.go),
// which carry no race-detector annotation, in //go:norace code. S keeps its own state to itself and never acquires
// another goroutine's vector clock (its channel operations on timer channels
// run on throw-away goroutines), so the race detector sees exactly the
// program's own synchronization. At the end of every controlled goroutine a
// pass through one mutex orders it before the end of the schedule, so state
// left by one schedule is not reported as racing with the next.
//
// Oracles: a panic in any controlled goroutine ("panic"), t.Failed() after
// the body ("test-failure"), nothing enabled and no timer pending while the
// body runs ("deadlock") or after it returned ("leak"; goroutines still
// running after the body returned get postTestSteps more decisions, then
// a fair window (postTestSteps, or 8 turns each when more), and another
// while fewer are live at its end than at its start (they are ending); a
// leak says whether they are all blocked forever,
// LeakBlocked, or some still running, LeakRunning; goroutines started by
// a package-level Once's function are the process's daemons, never a
// leak: once only they are left, the schedule passes), misuse
// the Go runtime would make fatal such as unlocking an unlocked mutex
// ("fatal"), and a livelock ("fatal", message starting "livelock:") only
// with evidence: livelockSpins decisions in a row that only spun (Gosched,
// atomic loads, a channel's len, a select taking default, a failed TryLock,
// time.Now), a
// count whatever the machine's speed (goroutines outside control that
// could end it get real naps meanwhile), none of them an atomic load of a
// word or value its goroutine had not read yet in the run (a scan over a
// table is progress, for each worker scanning it), while no other goroutine could do anything else and no timer
// was pending but idle ones; or a loop reading the clock for which the
// clock moved livelockClock with nothing else possible (clockHang; each
// read is then a scheduling point). An idle timer fired during the spin
// run and nobody progressed since: a ticker nobody reads, an AfterFunc
// whose callback only arms, stops or resets timers (idleTimers); it fires
// as the loop spins. The step bound Config.MaxSteps
// is not a finding: the schedule ends as a pass with Result.Inconclusive
// set. A schedule ends by unwinding every parked goroutine with a
// private panic; operations met while unwinding (deferred calls) run when
// harmless, unlocks only when the shadow says the lock is held, closes
// only of channels no goroutine waited to send on when the schedule ended,
// and blocking ones unwind again.
//
// Time is virtual and there is one clock: Sleep, timers, tickers, Now,
// Since, Until and the context deadlines of WithTimeout and WithDeadline
// (clock.go) all read it. It starts at the wall time the schedule began
// and jumps to the earliest deadline when no controlled goroutine can run,
// or when the last spinAdvance decisions only spun (a loop polling a flag,
// a select with default around a timer), every enabled goroutine is at
// such a spinning operation and the spinners repeat themselves (each that
// ran since the last sample of their stacks is back at a stack of an
// earlier one, sampleSpinners, and none read a word or value it had not
// read in the spin run since: workers each rereading one flag per entry
// they write, or loading each entry's counter at one stack, progress, and
// get no time jump nor livelock; a loop reading the clock gets 1 ms per
// turn then, not a faster clock each turn); otherwise one that is not runs first (the
// spinner is preempted, as a goroutine just started would run in
// parallel), and none outside control is in a lock of code that is not
// rewritten (it is not blocked for good: the spinner waits for it, up to
// outsideWait). While a goroutine waits on a timer's channel and others
// could run, a strategy other than the unperturbed one may also jump it
// first (earlyTime, Decision.Early: a loaded machine delays the others
// past the deadline); a test that then fails (its own timeout), before it
// returned or after (Late), is inconclusive, not a test failure. Not so
// a move that fires only AfterFuncs whose last callback is still running
// (Reset does not wait for it; overlapping): two callbacks at once are the
// code's to handle, a failure then is kept, and the new callbacks run
// first while they can (the delay that let them overlap). With
// Config.EarlySleep (pr's) a sleeper may wake so too, before goroutines
// started ahead of its sleep ran: a Stop that came before its Start.
// With Config.KeepEarly (repro's) goroutines passed over for a stretch
// are delayed: the jump comes before them with high odds, and they stay
// delayed while those it woke run (timers.go, delayed, heldRun).
// Never in a synctest bubble, whose clock moves only when all in it block. A loop that reads the clock between spins, with no timer
// pending, moves it by growing steps. Goroutines blocked outside control
// for something other than a lock (real I/O, a poller on the real clock
// in the standard library or a kept test framework) move it too: by the real time the scheduler waits
// while they are (up to the next deadline), so a timeout around real I/O
// fires no earlier than it would for real and a timer fires while a poller
// on the real clock keeps calling into the program; goroutines in real I/O
// ("IO wait") also move it by a tick per decision
// meanwhile, so a round trip through a real connection takes some time.
// And while a controlled goroutine waits on the outside world (real I/O, a
// wait in code whose time is real), the clock never lags real time
// counted from when it left (keepPace): where real time passes a
// deadline, what is due fires before the next decision (Decision.Paced,
// which a replay fires at the same decision), as it would under go test
// while a real server answers slowly. A wait in an in-process pipe of
// the standard library (net.Pipe, io.Pipe: pipeWait) or in a listener's
// Accept (acceptWait) is not the outside world: the scheduler's own time
// is not counted for it, and goroutines blocked in pipes with nothing else
// running let the clock move at once, as on a mock clock (virtualWait).
// A goroutine back from out there
// that reads the clock before the scheduler has taken it back makes that
// read a scheduling point, and taking it back catches the clock up to
// the same bound (catchUp): its first read after a real round trip never
// says less time passed than did.
// A replay does not measure these: it moves the clock where the
// recording's decisions say real time had moved it (Decision.Clock), so
// a loaded machine does not change what the program reads. Nor what it
// pairs: a buffered send or receive completes with the blocked goroutine
// its recording paired it with, or none (Decision.Partner; a recording
// took a slow goroutine back late, the clock moved), and a timer due
// before a decision's clock fires first, as in its recording, though a
// response came back sooner (fireRecordedDue).
// Goroutines the scheduler never controlled (started by code not
// rewritten) that are running or in a system call hold a jump of the
// clock for as long as the jump, in network I/O for up to ioGrace
// (paceForeign); while a controlled goroutine waits on the outside world
// (a request in flight), one sleeping for real (foreignSleep) until before
// the jump's end holds it until it wakes, up to the watchdog's limit, and
// the scheduler then decides again (a handler's answer brings the request
// back).
// A ticker whose channel still holds its last tick drops the ticks after
// it, as the runtime's does: its deadline skips to the next thing due
// (each dropped tick an idle move of the clock would wake nobody), and
// goes back on its period once its channel is read (resumeTickers).
// Timers made
// under control are time.Timer values with only C set (inside a box that
// keeps what they need, timerbox.go) and &time.Ticker{C: ch}; use them
// through TimerStop, TimerReset, TickerStop and TickerReset (their own
// methods would panic). A timer that outlives its schedule (a sync.Pool of
// timers) is adopted by the next schedule that resets or stops it, and
// outside control a real timer fires it. AfterFunc timers still pending
// when the test and its goroutines have ended fire then, in the same
// schedule (settleAfterFuncs; a failure of theirs is inconclusive), so the
// next schedule starts as a fresh process does; only a callback that
// re-arms itself more than settleMax times is carried into the next.
// Arming or resetting a timer happens before its firing (the AfterFunc
// callback, the send on its channel), as in the Go runtime. The rewriter
// puts the time operations of dependency modules on this clock too; the
// standard library and the test frameworks it leaves alone read the real
// clock. A ticker made while no schedule runs (a package's init starting
// a time cache) ticks on the real clock between schedules and on the
// virtual one during a schedule: a jump past its next tick sends it and
// waits, up to outsideWait, until no goroutine outside control runs
// (tickReal, realclock.go); Now outside control reads the virtual clock.
// Without such a ticker, Now outside control during a schedule reads the
// virtual clock or the real time the schedule has run, whichever is more
// (outsideNow): a test's handler on net/http's goroutine measures from a
// reading taken under control, and a loop outside control still sees time
// pass.
//
// Joiners. A go statement of rewritten code run by a goroutine outside
// control while a schedule runs (net/http's connection goroutine running a
// handler, a dependency's worker calling back) starts a joiner: the new
// goroutine queues and waits until the scheduler admits it at a decision
// of its own (Decision.Op "join", G its id), after which it is controlled,
// its start its first step. The search admits a queued joiner at its next
// decision; a strategy other than the unperturbed one may hold it back
// while a controlled goroutine is outside control (a response on its way),
// until one comes back, none is outside, its parent is found waiting, or
// joinHoldMax; the unperturbed schedule runs it on at once, as the runtime
// runs a goroutine just started. A replay admits joiners only at recorded
// joins, waiting for one started at the recorded site, so the new
// goroutine comes in at the same decision whatever its parent's timing;
// and when its next decision names a goroutine outside control (in real
// I/O, say) while others could run, it waits for that goroutine rather
// than diverge (awaitRecordedBack). Joiners no decision admitted run free
// once the test has returned or the schedule unwinds or ends.
//
// Random draws: math/rand's and math/rand/v2's top-level functions are
// rewritten to MathRand and MathRandV2 (rand.go), which under control draw
// from a stream seeded by the schedule's seed, in the order its decisions
// fix: a replay draws what the recording drew. NewSource and NewPCG take
// a seed read from the schedule's clock from that stream too.
//
// Foreign parties. A goroutine outside control (one that code which is
// not rewritten started, errgroup's say) that calls into the program while
// a schedule runs yields the processor at each such call, so that pollers
// outnumbering the processors do not starve the hand-offs. A channel
// closed outside control (the standard
// library's context, a dependency) is seen closed by reading the closed
// flag in the channel's header (chanpeek.go, checked at start-up). A
// Cond's Signal or Broadcast outside control (a finalizer's Close) wakes
// controlled waiters, which wait in the scheduler's wait set, at its next
// decision or probe (condoutside.go). Before
// the clock moves or a deadlock is declared, goroutines blocked on channels
// try their operation without blocking (a probe), again while a goroutine
// outside control is running or runnable (up to settleWait; while the
// number of goroutines stays as it was when none was, only every
// quietEvery-th time looks at a dump); a select with
// default that has no ready case tries its receive cases before it takes
// default. When a goroutine is outside control, goroutines blocked on a
// channel operation the shadow cannot complete perform it for real
// (blocking), where a partner outside control that only polls (testify's
// Eventually running a select with default) can find them; they are
// recalled as soon as no such goroutine is left, also while others keep
// the scheduler busy (a loop spinning). A goroutine waiting for real on an
// unbuffered channel (one outside control, one blocked for real) is a
// partner too: it is seen in the channel's wait queues (chanpeek.go,
// checked at start-up), so a controlled select can send its reply to a
// poller's goroutine. A released goroutine that does not come back within
// outsideSlice (outsideFirst once it has been found so before) and is
// found blocked (a dependency's semaphore or sleep, goleak's retry loop,
// testify's Eventually, I/O, a subprocess) waits outside control: the
// others go on, the clock waits for it as long as it would jump (up to
// outsideWait), and it is taken back when it reaches its next scheduling
// point (a replay waits for the one its next decision names while it
// runs: awaitRecorded). The clock does not wait when every goroutine outside control is
// blocked on a channel in code whose time operations are on the virtual
// clock (a dependency's mock clock, testify, whose time operations the
// rewriter puts there too; not the standard library nor RealClockModules)
// and nothing else runs, sleeps or does I/O for real (virtualWait): only
// the program can wake them. When the outcome of a schedule is decided (the
// test returned and nothing else is live, or the schedule unwinds) and the
// goroutines left are blocked outside control (a read loop on a connection
// the test did not close), the schedule ends without them after
// abandonWait, as go test would leave them; once the test returned, not
// when each waits where only another goroutine's call frees it (an io.Pipe's read or write) and
// nothing else in the process runs, sleeps or does I/O: a leak
// (leftForGood). When the test's own goroutine is one of those left, it
// may never return: a failure ends the process with its result
// (watchdogExit), and so does an undecided end, inconclusive with
// LostTestNote (lostTestExit; its goroutine waited in x/sync/semaphore
// for a releaser the step bound unwound). Between two schedules, the
// goroutines earlier ones left (outside control) are kept in the process
// when each is blocked on a channel in frames that are not the tool's,
// none of the program's locks is held outside control and none kept
// before has moved or ended (leftover.go; up to maxKept). A goroutine
// profile decides that check (leftoverstacks.go: stacks, no IDs) while
// none is runnable and every goroutine is at a stack it had or is parked
// away; a stack dump decides it otherwise, and at least every auditEvery-th
// time (a kept one that ended and a new one at its stack look alike in a
// profile). The Result of a
// schedule run beside them says how many (Result.Kept), and the driver
// reports its failures only once a fresh process replays them. Otherwise
// the driver goes on in a fresh process. A lock a goroutine held when its
// schedule unwound it stays held for real (leftHeld): a later schedule
// about to take it ends inconclusive (LeftHeldPrefix), and the process
// with it; so does one that fails after it came to a channel that a daemon
// (a package-level Once's goroutine, which no later schedule starts
// again) served in a schedule that unwound it (DaemonGonePrefix). A
// goroutine that runs without a scheduling point
// (a busy loop), or when nothing else can happen one outside control that
// does not come back, stops the schedule after Config.StepTimeout, or
// sooner when Config.Deadline is near (at most half a second past it, so
// that the driver's hard stop never kills a silent process): the process
// appends a "fatal" Result whose Message starts with MarkerWatchdog and
// names where the stuck goroutine is and whether it runs (a busy loop) or
// blocks (I/O, a foreign lock), with Result.Watchdog set to the time waited
// and Result.HeldBack when it blocked while other controlled goroutines
// could have run, Result.Progress when, sampled after the wait, it was
// computing, not stuck (ProgressNote); prints it (no MarkerEnd: the
// schedule stays open, as for a crash) and exits with ExitWatchdog.
//
// Observing the program: a scheduling point allocates nothing (tests count
// allocations with testing.AllocsPerRun or runtime.ReadMemStats, whose
// rewritten calls keep the counts read in Result.AllocCounts: such a count
// includes the other controlled goroutines' allocations); call
// sites are resolved when the Result is built, unless a targeted
// strategy, a replay or a trace needs them at once. NumGoroutine
// (runtime.NumGoroutine) counts only the program's goroutines.
//
// Testing hooks: t.Run runs the subtest on a new controlled goroutine while
// the caller waits ("t.Run"); the real t.Run is called from a helper
// goroutine. So does Run of an interface a *testing.T satisfies
// (RunRunner): testify's suite runs each method through one, in
// dependency code the rewriter changes for it, so a suite method runs
// under control as a subtest; a failure names the top-level subtest it
// happened in (Result.Subtest). A subtest that calls FailNow of its parent
// (a closure that captured the parent's t) ends the parent's t.Run with
// runtime.Goexit, as go test does. t.Parallel in a subtest keeps its meaning: the parent's t.Run
// returns, the subtest waits until the parent's function has returned, then
// runs alongside its parallel siblings, and the parent's cleanups and its
// own t.Run's return wait for them; channel operations stand for go test's
// happens-before edges. When a test's function (a schedule's test or
// a subtest) has returned and its parallel subtests have ended, its
// t.Context() is cancelled under control, as go test does before the
// cleanups: goroutines waiting on it end before the leak check. t.Parallel in a schedule's top-level test does
// nothing (the driver runs one test at a time). t.Cleanup (Cleanup) on a schedule's test or a subtest registers the
// function with that test's goroutine; the cleanups run under control, last
// first, when the test's function returns or calls t.FailNow, before the
// schedule ends; so does Cleanup(func()) of a helper's own interface
// holding the test (CleanupCleaner). TestMain is not controlled: its goroutines are foreign
// parties. os.Exit (Exit) under control appends a "fatal" Result naming the
// call before the process exits.
//
// Known limitations: only one schedule runs per process at a time; two
// joiners started at the same site (two requests to one handler) are told
// apart in a replay by the order they queue in, not by what they carry; a Cond
// waited on under control is not woken by an uncontrolled Signal; a
// WaitGroup whose counter was raised outside control is assumed to be zero
// (Wait then blocks for real and the watchdog ends the run), though Wait
// never runs while the real counter is below zero (a Done too many
// unwinding); TryLock results
// disagreeing with the shadow (a foreign holder) are not reconciled; a
// virtual timer reset by code that is not rewritten (t.Reset called
// directly) panics, and a virtual Ticker is not adopted across schedules;
// a select case completed through an adapter (a partner parked in the
// scheduler), a replay and a trace allocate (call sites are resolved at
// once), and the runtime itself may allocate now and then (a new thread)
// while a goroutine waits for the scheduler.
package rt
