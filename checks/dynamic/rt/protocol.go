package rt

// The protocol between the driver process (checks/dynamic/explore) and the
// instrumented test binary. The rewriter adds a driver test to each package:
//
//	func TestInterleaveDriver(t *testing.T) { interleavert.Main(t, tests) }
//
// with tests mapping every Test function name to the function. The driver
// process runs the binary with -test.run=^TestInterleaveDriver$ -test.v and
// the environment variable EnvConfig naming a JSON Config file. The binary
// appends one JSON Result per finished schedule to Config.Results, and writes
// MarkerStart/MarkerEnd lines to standard error around each schedule so that
// race-detector reports (printed to standard error by the race runtime) can
// be attributed to the schedule that produced them.

import (
	"hash/fnv"
	"strconv"
	"time"
)

// DriverTest is the name of the generated driver test function.
const DriverTest = "TestInterleaveDriver"

// EnvConfig names the environment variable holding the Config file path.
const EnvConfig = "INTERLEAVE_CONFIG"

// Markers written to standard error, each on its own line, followed by the
// schedule index: "interleave: schedule start 17".
const (
	MarkerStart = "interleave: schedule start "
	MarkerEnd   = "interleave: schedule end "
)

// MarkerUnwind, followed by a schedule index, says that the schedule has
// ended (a failure, or only the process's daemons left) and its goroutines
// still alive unwind: their deferred functions run now, which go test
// would never run for a goroutine blocked for good.
const MarkerUnwind = "interleave: unwinding schedule "

// MarkerReturned, followed by a schedule index, says that the schedule's
// test function returned with goroutines left running: what the race
// detector prints after it, in that schedule, happened in what the test
// left behind (go test's process meets it only if it runs on that long).
const MarkerReturned = "interleave: test returned, goroutines left, schedule "

// MarkerLeftovers, followed by a schedule index and a count, says that
// the binary stopped before that schedule because goroutines of earlier
// schedules were still alive: the driver runs it in a fresh process.
const MarkerLeftovers = "interleave: leftovers before schedule "

// MarkerRerun, followed by a schedule index and a count, says that the
// binary stopped before that schedule because, in this process, the
// count schedules after the test's first all failed one way the first did
// not (Config.RerunEvidence): a test that cannot run twice in one process.
// The driver runs the test one schedule per process from then on.
const MarkerRerun = "interleave: rerun fails before schedule "

// EnvChild names the test a child process of a test runs plainly: the
// driver test sets it (and unsets EnvConfig) for the processes a test
// starts from its own binary.
const EnvChild = "INTERLEAVE_CHILD"

// ScheduleVersion is the version of the schedule file format.
const ScheduleVersion = 1

// ScheduleVersionFiles is the version of a schedule that carries Files:
// an interleave that reads only version 1 would replay it without them.
const ScheduleVersionFiles = 2

// ScheduleVersionTags is the version of a schedule that carries Tags: an
// interleave that reads only up to version 2 would build its replay
// without them.
const ScheduleVersionTags = 3

// ScheduleVersionRepro is the version of a schedule with KeepEarly, Runs,
// MaxSteps or TestTimeout set (repro's): an interleave that reads only up
// to version 3 would call its failure inconclusive, run its test once,
// stop it at the default step bound or time it out at the default.
const ScheduleVersionRepro = 4

// ScheduleVersionPrior is the version of a schedule that carries Prior:
// an interleave that reads only up to version 4 would replay it without
// the schedules before it, which its failure needs.
const ScheduleVersionPrior = 5

// ScheduleVersionTick is the version of a schedule that carries NowTick:
// an interleave that reads only up to version 5 would replay it with
// another step of the clock per read. A file of an older version was
// recorded with LegacyNowTick.
const ScheduleVersionTick = 6

// ScheduleVersionRun is the version of a schedule that carries Run: an
// interleave that reads only up to version 6 would replay it with every
// subtest, not those the search ran.
const ScheduleVersionRun = 7

// ScheduleVersionSkip is the version of a schedule that carries Skip: an
// interleave that reads only up to version 7 would replay it with the
// subtests -skip left out.
const ScheduleVersionSkip = 8

// ScheduleVersionSeeded is the version of a schedule with an earlier
// run carried by its seed and Digest instead of its decisions: an
// interleave that reads only up to version 8 would replay it on no
// decisions.
const ScheduleVersionSeeded = 9

// ScheduleVersionSolo is the version of a schedule with solo runs
// (Decision.Solo): an interleave that reads only up to version 9 would
// take a decision at each of their atomic operations and diverge.
const ScheduleVersionSolo = 10

// ScheduleVersionStretch is the version of a schedule recorded with a
// stretched clock (Schedule.Stretch): an interleave that reads only up to
// version 10 would move the clock by NowTick at each read and diverge.
const ScheduleVersionStretch = 11

// ScheduleVersionSoloRun is the version of a schedule whose solo runs a
// target cut short (Decision.SoloRun): an interleave that reads only up
// to version 11 would run them on through the target and diverge.
const ScheduleVersionSoloRun = 12

// ScheduleVersionBubbleEnd is the version of a schedule whose synctest
// bubble's end waited for its goroutines (Schedule.BubbleEnd): an
// interleave that reads only up to version 12 would let the test go on
// without that decision and diverge.
const ScheduleVersionBubbleEnd = 13

// ScheduleVersionNowOutside is the version of a schedule with a read of
// the clock made a scheduling point as its goroutine was back from
// outside control (Decision.NowOutside): an interleave that reads only up
// to version 13 would make every read at that site before it one too and
// diverge.
const ScheduleVersionNowOutside = 14

// LegacyNowTick is the step of the clock per read of the schedules
// before ScheduleVersionTick.
const LegacyNowTick = time.Nanosecond

// Config tells the test binary what to run.
type Config struct {
	Test      string    `json:"test"`             // top-level test function name, or "TestX/Sub": only its top-level subtest Sub (subtests.go)
	Strategy  string    `json:"strategy"`         // NewStrategy's name: "portfolio" (""), "random", "pct", "pos" or a list
	Seed      int64     `json:"seed"`             // schedule i uses Seed+i
	First     int       `json:"first"`            // index of the first schedule (for Seed+i and markers)
	Schedules int       `json:"schedules"`        // at most this many schedules; 0 = until Deadline
	Deadline  time.Time `json:"deadline"`         // start no schedule after this
	Replay    *Schedule `json:"replay,omitempty"` // run exactly this schedule once
	Results   string    `json:"results"`          // JSON-lines file of Result
	MaxSteps  int       `json:"maxSteps"`         // per-schedule step bound (an inconclusive end, not a finding); 0 = default
	// Until is when the driver stops the process: a schedule started
	// before Deadline may run until then, and a step is waited for until
	// Until plus a grace (Deadline when Until is unset).
	Until time.Time `json:"until,omitempty"`
	// ReplayBy, when set, is when the parent must have replayed alone a
	// failure this process finds, less what its fresh processes take to
	// start: once a schedule failed, no schedule starts unless the longest
	// so far fits 1+ReplayTries times before ReplayBy (the next one, then
	// the failure's replays). Deadline was set before any failure was
	// known: a failing schedule far longer than a passing one (a running
	// leak's thousands of decisions) left its replay no time.
	ReplayBy    time.Time `json:"replayBy,omitempty"`
	ReplayTries int       `json:"replayTries,omitempty"`
	// StepTimeout is the watchdog: the longest wall time the running goroutine
	// may take to reach its next scheduling point.
	StepTimeout time.Duration `json:"stepTimeout"`
	Targets     []string      `json:"targets,omitempty"` // "file.go:12" sites where preemption is favoured
	Trace       bool          `json:"trace,omitempty"`   // flush decisions as they are made (to replay a crash)
	StopOnFail  bool          `json:"stopOnFail,omitempty"`
	// StopOnPass stops the process after its first schedule that passed
	// (explore: while whether a failure is the code's waits on a pass).
	StopOnPass bool `json:"stopOnPass,omitempty"`
	// StopFile, when set, is a file whose existence tells the process to
	// start no further schedule (the parent's search of the test ended).
	StopFile string `json:"stopFile,omitempty"`
	// RerunEvidence, when above 0, stops a process of one test (neither a
	// replay nor a batch) whose RerunEvidence schedules after the first
	// all failed one way (same outcome, site and first line of the
	// message) that the first did not (it passed, or failed another way:
	// a server's port another worker's process held), before the
	// schedule after them (MarkerRerun): such a test fails on every run
	// in a process after its first, on state it left (a name registered
	// twice), and schedules spent on it test nothing more.
	RerunEvidence int `json:"rerunEvidence,omitempty"`
	// Batch, when set, names tests to run one after another in this
	// process instead of Test, Schedules schedules each (one when 0): the
	// j-th's from index First+j*Schedules. Between two schedules the
	// leftover rule holds as ever (MarkerLeftovers names the first not
	// started), and none starts after Deadline.
	Batch []string `json:"batch,omitempty"`
	// KeepEarly is repro's: a failure after an early timer (earlyTime) is
	// kept, with Result.Early set, instead of inconclusive, and the clock
	// may also jump early to a sleeper's wake-up or to a waited timer's
	// deadline beyond the next one, firing what is due on the way (a
	// machine that ran none of the goroutines that could run meanwhile).
	KeepEarly bool `json:"keepEarly,omitempty"`
	// EarlySleep is pr's and test's: the clock may also jump early to a sleeper's
	// wake-up (earlyTargets), as with KeepEarly, while a failure of the
	// test after an early jump stays inconclusive. A goroutine that
	// started late and is left running when the test passed is then a
	// leak (a Stop that came before its Start).
	EarlySleep bool `json:"earlySleep,omitempty"`
	// Runs, when above 1, runs the test function that many times in a row
	// in each schedule, as go test -count=N does in one process: a run
	// meets what the runs before it left (package state, goroutines
	// still running). The cleanups of a run run before the next.
	Runs int `json:"runs,omitempty"`
	// TestTimeout is go test's -timeout (DefaultTestTimeout when 0): a
	// test blocked that long of virtual time while goroutines wake only on
	// timers has timed out (testTimedOut).
	TestTimeout time.Duration `json:"testTimeout,omitempty"`
	// Run, when set, is go test's -run pattern with elements for subtests
	// (RunFilter): a controlled t.Run runs its subtest only when the
	// pattern selects it, as go test's t.Run would.
	Run string `json:"run,omitempty"`
	// Skip, when set, is go test's -skip pattern with elements for
	// subtests: a controlled t.Run does not run a subtest it skips
	// (RunFilter.Skips).
	Skip string `json:"skip,omitempty"`
}

// Decision is one choice of the scheduler: which logical goroutine ran next,
// the site it was parked at and the operation (recorded so that a replay
// which drifts can say where). Choice is set for a select (the case index,
// -1 for default) and for Cond.Signal (the woken waiter).
type Decision struct {
	G      int    `json:"g"`
	Site   string `json:"site,omitempty"`
	Op     string `json:"op,omitempty"`
	Choice *int   `json:"choice,omitempty"`
	// First is set on a select that took another case than its first
	// ready one, the case the unperturbed schedule takes: that case's
	// index (-1 never: default is the last of the ready). Such a choice
	// is one the failure may hang on; a replay ignores it.
	First *int `json:"first,omitempty"`
	// Partner is the goroutine released together with G to complete an
	// unbuffered channel operation (added by rt; absent otherwise).
	Partner *int `json:"partner,omitempty"`
	// Obj numbers the object of the operation (mutex, channel, WaitGroup...)
	// in the order the run first met it, from 1; 0 when there is none. It
	// lets a report tell two locks taken at the same line apart.
	Obj int `json:"obj,omitempty"`
	// Early is set when, before this decision, the clock moved to the
	// next deadline although goroutines could run (earlyTime).
	Early bool `json:"early,omitempty"`
	// Clock is the virtual clock at this decision (nanoseconds since the
	// schedule's start), set when real time moved it since the decision
	// before (goroutines outside control in real I/O or a real wait). A
	// replay moves its clock there instead of by the real time its own
	// waits take, which a loaded machine makes longer.
	Clock int64 `json:"clock,omitempty"`
	// Paced is set when, before this decision, real time moved the clock
	// past pending deadlines while a goroutine waited on the outside
	// world (keepPace): the clock (as Clock) up to which what was due
	// fired. A replay fires them there.
	Paced int64 `json:"paced,omitempty"`
	// Done is set on the first decision after the test's goroutine ended
	// (its exit may come back from code outside control while others
	// run, sooner or later by the machine's load): a replay waits for
	// that exit here and counts the steps after the test from here.
	Done bool `json:"done,omitempty"`
	// Solo is set when G went on to run its next atomic operations (up
	// to soloRun) without a decision each: it was the only goroutine
	// that could run and nothing else could start to (solo.go). A replay
	// follows it.
	Solo bool `json:"solo,omitempty"`
	// SoloRun, when set, is how many atomic operations the solo run
	// Solo granted went through before a target (Config.Targets) ended
	// it with a decision (soloAtTarget): a replay, given no targets,
	// ends it there.
	SoloRun int32 `json:"soloRun,omitempty"`
	// NowOutside is set on a read of the clock that was a scheduling
	// point because G was back from outside control (a real round trip
	// the clock had yet to count): whether it is depends on timing, so a
	// replay makes the read there a scheduling point (recordedNow). A
	// read made one by the count of reads (nowSpins) is not marked: its
	// replay counts alike.
	NowOutside bool `json:"nowOutside,omitempty"`
	// Path is set in a failing schedule's Result where a preemption can
	// be (a switch of goroutines, a goroutine's first operation): the
	// user frames that called Site, innermost first and space-separated,
	// up to the first in a test file (left out). A replay ignores it.
	Path string `json:"path,omitempty"`
}

// A leak's message starts with LeakBlocked when every goroutine left after
// the test returned is blocked forever (nothing can complete its operation),
// with LeakRunning when some are still running (runnable, spinning,
// sleeping, polling) a bound of decisions after it returned.
const (
	LeakBlocked = "leak: goroutines still blocked after the test returned: "
	LeakRunning = "leak: goroutines still running after the test returned, "
)

// Signature identifies a failure independently of the schedule.
type Signature struct {
	Kind    string `json:"kind"`    // checks.FailureKind
	Message string `json:"message"` // first line of the failure
	Site    string `json:"site"`    // file:line of the first user frame
}

// Schedule is the replayable record of one run: the file format behind
// `interleave replay`.
type Schedule struct {
	Version   int    `json:"version"`
	Package   string `json:"package"`
	Dir       string `json:"dir,omitempty"` // package directory relative to the module root
	Test      string `json:"test"`
	GoVersion string `json:"goVersion"`
	Race      bool   `json:"race"`
	// Tags are the build tags (go build -tags) of the test binary the
	// schedule was found with; its replay builds with them too.
	Tags      []string   `json:"tags,omitempty"`
	Strategy  string     `json:"strategy"`
	Seed      int64      `json:"seed"`
	Decisions []Decision `json:"decisions"`
	Failure   *Signature `json:"failure,omitempty"`
	// Original is the schedule as the search found it, when Decisions is
	// a shrunk copy with fewer preemptions (rt replays Decisions only).
	Original []Decision `json:"original,omitempty"`
	// Leave: once a replay leaves Decisions it goes on unperturbed
	// (Plain), and a select takes the case its goroutine took on its
	// same-numbered select at that site in Resync (recorded selects: a
	// schedule's, which Decisions may cut or reorder), when that case is
	// ready. The shrinker's tries.
	Leave  bool       `json:"leave,omitempty"`
	Resync []Decision `json:"resync,omitempty"`
	// Files are test files of the package that are not in its tree (the
	// tests interleave gen wrote): replay adds them to the package.
	Files []SourceFile `json:"files,omitempty"`
	// ClockBase is where the virtual clock started when the schedule was
	// recorded: a replay starts its clock at the same fraction of a second
	// (sameFraction), so that a timer due at a whole second (a cron job)
	// fires at the same point of the schedule.
	ClockBase time.Time `json:"clockBase,omitempty"`
	// KeepEarly says that the failure needs a timer to fire early
	// (Config.KeepEarly): its replay keeps it rather than calling it
	// inconclusive. Only repro writes it, for a failure its log shows.
	KeepEarly bool `json:"keepEarly,omitempty"`
	// ReadsGoroutines says that the run read a dump of every goroutine
	// (Result.Dumps): its goroutine IDs, which no schedule fixes.
	ReadsGoroutines bool `json:"readsGoroutines,omitempty"`
	// Runs is Config.Runs of the search that found it: its replay runs
	// the test as many times in a row.
	Runs int `json:"runs,omitempty"`
	// MaxSteps is Config.MaxSteps of the search that found it, when not
	// the default: its replay has the same step bound.
	MaxSteps int `json:"maxSteps,omitempty"`
	// TestTimeout is Config.TestTimeout of the search that found it, when
	// not the default: its replay times out as late.
	TestTimeout time.Duration `json:"testTimeout,omitempty"`
	// Prior are schedules the recording process ran before this one,
	// in order, whose state (package variables, a closed default pool)
	// the failure needs: a replay runs them first in its one process,
	// each on its decisions, then this one.
	Prior []Prior `json:"prior,omitempty"`
	// NowTick is the step of the virtual clock per read (NowTick, the
	// constant, when it was recorded): its replay reads the same times.
	// Zero: the constant.
	NowTick time.Duration `json:"nowTick,omitempty"`
	// Stretch says that the clock of a loop that works until a time has
	// passed was stretched in a run it replays (Result.Stretched,
	// stretch.go): its replay stretches alike. Without it a replay never
	// stretches, as its recording did not.
	Stretch bool `json:"stretch,omitempty"`
	// BubbleEnd says that a synctest bubble's end waited for its
	// runnable goroutines in a run it replays (Result.BubbleEnd): its
	// replay waits alike. Without it a replay does not wait there, as
	// its recording (before ScheduleVersionBubbleEnd) did not.
	BubbleEnd bool `json:"bubbleEnd,omitempty"`
	// Run is Config.Run of the search that found it: its replay runs the
	// same subtests.
	Run string `json:"run,omitempty"`
	// Skip is Config.Skip of the search that found it: its replay leaves
	// out the same subtests.
	Skip string `json:"skip,omitempty"`
	// PriorStrategy and PriorTargets are the strategy (Config.Strategy)
	// and Config.Targets of the recording process, set when a Prior is
	// carried by its seed: its replay runs that strategy.
	PriorStrategy string   `json:"priorStrategy,omitempty"`
	PriorTargets  []string `json:"priorTargets,omitempty"`

	// bySeed: this schedule runs its strategy from Seed rather than
	// following Decisions (a Prior carried by its Digest).
	bySeed bool
}

// Prior is one schedule run before a Schedule in its process.
type Prior struct {
	Test      string     `json:"test"`
	Seed      int64      `json:"seed"`
	Decisions []Decision `json:"decisions"`
	ClockBase time.Time  `json:"clockBase,omitempty"`
	// Outcome is its Result's when recorded ("pass" or a failure kind;
	// empty in older schedules): a replay that ends otherwise left
	// other state.
	Outcome string `json:"outcome,omitempty"`
	// Digest, set when Decisions is left out (a long prefix: the token
	// would not hold them), is DecisionDigest of its decisions, and Steps
	// their count: its replay runs Schedule.PriorStrategy from Seed, as
	// the recording process did, and is off its schedule unless it makes
	// the same decisions.
	Digest string `json:"digest,omitempty"`
	Steps  int    `json:"steps,omitempty"`
}

// BySeed says whether p is replayed from its seed (Digest) rather than
// on its decisions.
func (p *Prior) BySeed() bool { return p.Digest != "" && len(p.Decisions) == 0 }

// DecisionDigest is a digest of what decisions chose (all but Path,
// which a replay ignores): two runs with the same digest took the same
// steps.
func DecisionDigest(ds []Decision) string {
	h := fnv.New64a()
	var b []byte
	for _, d := range ds {
		choice, partner := -1, -1
		if d.Choice != nil {
			choice = *d.Choice
		}
		if d.Partner != nil {
			partner = *d.Partner
		}
		b = strconv.AppendInt(b[:0], int64(d.G), 10)
		b = append(b, ' ')
		b = append(b, d.Site...)
		b = append(b, ' ')
		b = append(b, d.Op...)
		for _, n := range []int64{int64(choice), int64(partner), int64(d.Obj), d.Clock, d.Paced} {
			b = append(b, ' ')
			b = strconv.AppendInt(b, n, 10)
		}
		b = append(b, ' ')
		b = strconv.AppendBool(b, d.Early)
		b = append(b, ' ')
		b = strconv.AppendBool(b, d.Done)
		b = append(b, '\n')
		h.Write(b)
	}
	return strconv.FormatUint(h.Sum64(), 16)
}

// SourceFile is one file a schedule carries.
type SourceFile struct {
	Name   string `json:"name"` // base name, in the package directory
	Source string `json:"source"`
}

// GoroutineState is one goroutine when a schedule ended.
type GoroutineState struct {
	ID    int    `json:"id"`
	Op    string `json:"op,omitempty"`   // what it is blocked on ("chan receive", "Mutex.Lock")
	Site  string `json:"site,omitempty"` // file:line of that operation
	Stack string `json:"stack,omitempty"`
	Obj   int    `json:"obj,omitempty"` // the operation's object, numbered as in Decision.Obj
}

// Result is one finished schedule.
type Result struct {
	Index      int              `json:"index"`
	Seed       int64            `json:"seed"`
	Outcome    string           `json:"outcome"` // "pass" or a checks.FailureKind
	Message    string           `json:"message,omitempty"`
	Site       string           `json:"site,omitempty"` // first user frame of the failure
	Goroutines []GoroutineState `json:"goroutines,omitempty"`
	Decisions  []Decision       `json:"decisions"`
	Steps      int              `json:"steps"`
	Diverged   string           `json:"diverged,omitempty"` // replay only: where the run left the schedule
	Elapsed    time.Duration    `json:"elapsed"`
	// Watchdog is set when the watchdog ended the schedule: how long it
	// waited for the stuck goroutine (less than Config.StepTimeout when the
	// end of the run was near).
	Watchdog time.Duration `json:"watchdog,omitempty"`
	// HeldBack is set when the watchdog found the stuck goroutine blocked
	// while other controlled goroutines could have run: it may have been
	// waiting for one of them through something the scheduler does not
	// see, so the hang may be the scheduler's doing.
	HeldBack bool `json:"heldBack,omitempty"`
	// Progress is set when the watchdog found the goroutine it waited for
	// not stuck: sampled after the wait, its stack moved (ProgressNote).
	// Such a schedule is slow, not hung.
	Progress bool `json:"progress,omitempty"`
	// Inconclusive is set, with Outcome "pass", when the schedule was
	// stopped by a bound (Config.MaxSteps) before the test ended, or the
	// test skipped itself (SkippedPrefix): it says nothing either way, and
	// is never a finding.
	Inconclusive string `json:"inconclusive,omitempty"`
	// TargetHits counts, per Config.Targets entry, the decisions whose
	// operation (or a user caller of it) is at or near it; TargetPreempts
	// the times the targeted strategy ran another goroutine there.
	TargetHits     map[string]int `json:"targetHits,omitempty"`
	TargetPreempts map[string]int `json:"targetPreempts,omitempty"`
	// Subtests is the test's top-level subtests, with the goroutines
	// each started (subtests.go), when Config.Targets is set.
	Subtests []SubtestRun `json:"subtests,omitempty"`
	// Subtest names the top-level subtest the failure happened in (a
	// suite's method): the one that failed, the panicking goroutine's,
	// or the one all blocked goroutines but the test's belong to; "" when
	// none or several.
	Subtest string `json:"subtest,omitempty"`
	// LeftBehind is, for a test-failure, the leak the failed test left
	// (a message starting LeakBlocked or LeakRunning), its goroutines in
	// Goroutines: what followed from the failure, not a finding of its own.
	LeftBehind string `json:"leftBehind,omitempty"`
	// AfterReturn is set, for a test-failure, when the test failed only
	// after it returned: a goroutine it left failed it (through a
	// testing.TB, as testify's assertions do) while the scheduler ran the
	// goroutines it left. Plain go test cannot see it when its process
	// ends first.
	AfterReturn bool `json:"afterReturn,omitempty"`
	// ClockBase is where the schedule's virtual clock started.
	ClockBase time.Time `json:"clockBase,omitempty"`
	// Stretched is set when a read moved the clock by more than NowTick
	// (stretch.go): its schedule file says so (Schedule.Stretch).
	Stretched bool `json:"stretched,omitempty"`
	// StretchedBy is how far the stretched reads moved the clock beyond
	// NowTick a read, in all: beside Elapsed, whether the stretch took
	// the clock ahead of real time.
	StretchedBy time.Duration `json:"stretchedBy,omitempty"`
	// BubbleEnd is set when a synctest bubble's end waited for its
	// goroutines (bubbleEnd): its schedule file says so
	// (Schedule.BubbleEnd).
	BubbleEnd bool `json:"bubbleEnd,omitempty"`
	// Virtual is how far the virtual clock moved until the test returned
	// (until the end when it did not): the time the test's sleeps and
	// timers take for real under plain go test.
	Virtual time.Duration `json:"virtual,omitempty"`
	// Kept is how many goroutines earlier schedules left behind ran in
	// the process beside this one (parked on channels: leftover.go). A
	// failure of such a schedule is told only once a fresh process
	// replays it.
	Kept int `json:"kept,omitempty"`
	// Early, with Config.KeepEarly, counts the early clock jumps
	// (earlyTime) before a failure that would otherwise be inconclusive.
	Early int `json:"early,omitempty"`
	// EarlyMoves tell the early moves of the clock that ended timed
	// waits (earlymove.go), each before the decision its Step numbers.
	EarlyMoves []EarlyMove `json:"earlyMoves,omitempty"`
	// Far is set when the clock jumped further than a loaded machine's
	// delay (farNow; a search's, not a replay's): only a data race counts
	// on such a schedule, and explore only one with an access at a target.
	Far bool `json:"far,omitempty"`
	// AddrInUse is the address of a listen (Listen) during the schedule
	// that failed because the address was in use ("" when none).
	AddrInUse string `json:"addrInUse,omitempty"`
	// Unordered is set when a range over a map met keys holding pointers
	// never stored under control, in the runtime's order (maprange.go):
	// a failure through it may not replay.
	Unordered *UnorderedRange `json:"unordered,omitempty"`
	// Choices counts the points where another schedule could go another
	// way: decisions with two or more goroutines enabled, choices among
	// select cases, Cond waiters or channel partners, a timer that could
	// fire early, map ranges of two or more keys, random draws, and
	// goroutines outside control. With none, every schedule of the test
	// is this one.
	Choices int `json:"choices,omitempty"`
	// Draws counts the Choices that were random draws (math/rand's
	// top-level functions) or orders of a map range: when they are all,
	// two schedules of the test differ in the values drawn, not in the
	// order its goroutines ran.
	Draws int `json:"draws,omitempty"`
	// AllocReads counts the program's reads of allocation counts
	// (AllocsPerRun, ReadMemStats: allocs.go); AllocCounts are the
	// nonzero counts read, the first maxAllocCounts: AllocsPerRun's
	// results and the Mallocs between two ReadMemStats calls. Such
	// counts include the scheduler's and other goroutines' allocations.
	AllocReads  int       `json:"allocReads,omitempty"`
	AllocCounts []float64 `json:"allocCounts,omitempty"`
	// Dumps counts the dumps of every goroutine the program read under
	// control (Stack with all: a leak checker's, a test's of its own
	// goroutines). Their goroutine IDs are the Go runtime's, handed out
	// per processor, not in the order the schedule starts goroutines.
	Dumps int `json:"dumps,omitempty"`
}

// Main is in driver.go.
