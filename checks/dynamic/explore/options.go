// What Run takes and returns: Options and their defaults, Stats, Result, and the errors.

package explore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// Strategies lists the scheduling strategies Run accepts, the default
// first; a comma-separated list of them is a portfolio of those.
var Strategies = rt.StrategyNames

// DefaultSchedulesDir is where schedule files go unless Options says otherwise
// (relative to Options.Dir).
const DefaultSchedulesDir = ".interleave/schedules"

// DefaultStepTimeout is the runtime's watchdog: the longest a goroutine may
// run between two scheduling points before the schedule is abandoned as hung.
const DefaultStepTimeout = 5 * time.Second

// TestRef names one test explicitly, with its share of the budget.
type TestRef struct {
	Package string  // import path
	Name    string  // top-level Test function
	Weight  float64 // relative share of the budget; 0 means 1
}

// Options says what to search and for how long.
type Options struct {
	Dir      string   // working directory, inside a module (default: the current one)
	Patterns []string // package patterns (default ".")
	Run      string   // regexp on test names (default: all)
	Skip     string   // regexp on test names not to search (default: none); with Run, as go test -skip
	// Tests, when set, lists the tests to run instead of Run; the PR job uses
	// it to split the budget by weight.
	Tests        []TestRef
	Budget       time.Duration // wall time of the search, over all tests (builds excluded)
	Strategy     string        // "portfolio" (default), "random", "pct", "pos" or a list
	Seed         int64         // schedule i of a test uses Seed+i
	Race         bool          // build with the race detector
	Tags         []string      // build tags (go build -tags); schedules record them for their replays
	SchedulesDir string        // where schedule files go (default DefaultSchedulesDir)
	Workers      int           // worker processes per test (default GOMAXPROCS)
	Targets      []string      // "file.go:12" sites where preemption is favoured
	// ReplayFirst, when set, picks the findings whose causes are replayed
	// (and so reported) first after the search, each cause still its
	// fair part of the time left: gen's, those whose goroutines call
	// the methods a change touched.
	ReplayFirst func(checks.Finding) bool
	// KeepAfter is left of Budget, once a failure is found, for the
	// caller's own work on the failures after Run returns (the pull-request
	// job's search on the base commit).
	KeepAfter time.Duration
	// KeepFor, when set, replaces KeepAfter: given, for each cause found
	// so far that the report will replay (shrinkReserve), the measured
	// cost of one schedule and of the search that gives the base commit
	// its chances at it (CauseCost), it returns what to keep (BaseCost).
	// Called with the search's lock held: it must not call back into the
	// search.
	KeepFor  func(causes []CauseCost) time.Duration
	Progress func(Stats) // called about twice a second, and once at the end
	// Stage, when set, is told when each stage of the run starts and ends:
	// loading and instrumenting, each build, each test's search, shrinking.
	Stage func(StageEvent)
	// StepTimeout is the watchdog: the longest a controlled goroutine may
	// take to reach its next scheduling point (default DefaultStepTimeout).
	// A goroutine stuck that long is a finding; one stuck when the budget
	// runs out, before the full timeout, is a note.
	StepTimeout time.Duration
	// Until, when set, is asked about each failing schedule as the search
	// collects it, shown as the Finding it would become (without schedule
	// file or story). Once it returns true the search ends early and that
	// failure is the one kept for its key; Result.Met says so. Worker
	// processes then stop at each failing schedule, so that one is seen
	// as soon as it happens.
	Until func(checks.Finding) bool
	// TestUntil, when set, is asked the same about each failing schedule
	// of a test's search that will be a finding whatever plain go test
	// does (not the unperturbed schedule's failure while every schedule
	// fails that way: plain go test decides whether that is the code's);
	// once it returns true that test's search ends (its processes start
	// no further schedule) and the rest of its slice goes to the tests
	// after it. Worker processes then stop at each failing schedule, as
	// with Until, until the test's first failure TestUntil refused; while
	// a failure it was not asked about waits for a schedule that passes
	// (or plain go test failing so), they stop at their first pass
	// instead. With Schedules, a test's search also ends at its count.
	// StopAtFirst is the TestUntil of a search that wants one failure of
	// each test.
	TestUntil func(checks.Finding) bool
	// SkipTest, when set, is asked before each test's search, after the
	// unperturbed runs: true leaves the test with its unperturbed schedule
	// alone. With TestUntil it ends a group of tests once the group has
	// what its caller waits for (gen's corpus tests: one failure a type).
	SkipTest func(TestRef) bool
	// KeepEarly, when set, is asked about each failure that followed an
	// early timer (rt.Config.KeepEarly), which is otherwise inconclusive
	// (the test's own timeout, most likely): true keeps it, labelled
	// (Finding.EarlyTimers) and replayed so. Only repro sets it, for the
	// failure its log shows plain go test had.
	KeepEarly func(checks.Finding) bool
	// PlainShown, when set, tells a failure that plain go test is known
	// to have shown: such a failure on the unperturbed schedule is never
	// filed as the tool's doing because plain runs here pass (they may
	// not run as long, or as often, as the run that showed it). Only
	// repro sets it, for the failure of its log.
	PlainShown func(checks.Finding) bool
	// EarlySleep lets a strategy end a time.Sleep before goroutines that
	// could run, as it fires a waited timer (rt.Config.EarlySleep): a
	// loaded machine delays them past the sleep. pr and test set it. A test that
	// then fails stays inconclusive (its sleep was its synchronization);
	// what it leaves running when it passed is a leak.
	EarlySleep bool
	// Runs, when above 1, runs each test that many times in a row in each
	// schedule (rt.Config.Runs), as go test -count=N does in one process;
	// its schedules and plain go test runs say so too. repro sets it from
	// the log.
	Runs int
	// MaxSteps, when positive, is each schedule's step bound
	// (rt.Config.MaxSteps; else rt.DefaultMaxSteps): a schedule stopped
	// by it is inconclusive (TestStats.StepBound). Its schedules record
	// it, so that a replay has the same. repro's -max-steps sets it.
	MaxSteps int
	// TestTimeout, when positive, is go test's -timeout for the tests
	// (rt.Config.TestTimeout; else rt.DefaultTestTimeout): a test blocked
	// that long of virtual time while goroutines wake only on timers has
	// timed out. Its schedules record it. repro sets it from a log that
	// timed out.
	TestTimeout time.Duration
	// Schedules, when positive, bounds each test's search by a count as
	// well: every worker runs at most this many of its schedules (the
	// unperturbed one not counted), the same seeds on any machine; the
	// budget still bounds the time. A slow machine then takes longer,
	// not fewer schedules, when the budget is ample.
	Schedules int
	// Build, when set, is the instrumentation and test binaries the
	// search uses instead of its own (NewBuild): its race and tags must
	// be the search's, and it must hold every package of Patterns.
	Build *Build

	// afterSearch, for tests, runs when the search is over, before its
	// failures are shrunk and checked.
	afterSearch func(*search)
}

// StageEvent is a stage of Run starting (Done false) or ending (Done
// true, with its wall time).
type StageEvent struct {
	Name string
	Done bool
	Took time.Duration
	// Detail is set at the end of a test's search: its schedules and
	// failures.
	Detail string
}

// TestStats counts one test's schedules.
type TestStats struct {
	Package   string `json:"package"`
	Test      string `json:"test"`
	Schedules int    `json:"schedules"`
	Failures  int    `json:"failures"` // failing schedules, before dedupe
	Crashes   int    `json:"crashes"`  // processes that died mid-schedule
	// ToFirstFailure is the fewest schedules one worker ran up to and
	// including a failing one (0: no failure): schedules-to-bug.
	ToFirstFailure int `json:"toFirstFailure,omitempty"`
	// Elapsed is the wall time the test was searched.
	Elapsed time.Duration `json:"elapsed"`
	// Plain is the outcome of the unperturbed schedule, run first: "pass",
	// a failure kind, or "" when it did not finish.
	Plain string `json:"plain,omitempty"`
	// Cost is the measured wall time of one process running one schedule
	// (the unperturbed one): what the budget is split by.
	Cost time.Duration `json:"cost,omitempty"`
	// Stopped counts the schedules stopped unfinished when the test's
	// share of the budget ran out (inconclusive; not crashes).
	Stopped int `json:"stopped,omitempty"`
	// StepBound counts the schedules stopped by the step bound
	// (Options.MaxSteps) before the test ended: inconclusive.
	StepBound int `json:"stepBound,omitempty"`
	// Inconclusive counts the schedules among Schedules that ended
	// neither passing nor failing (the step bound, a failure after a timer
	// fired early): a failure's frequency leaves them out.
	Inconclusive int `json:"inconclusive,omitempty"`
	// PlainSteps is the scheduling steps its unperturbed schedule took
	// (rt.Result.Steps), MostSteps the most any of its schedules took
	// that the step bound did not stop.
	PlainSteps int `json:"plainSteps,omitempty"`
	MostSteps  int `json:"mostSteps,omitempty"`
	// MaxSteps is the step bound of its schedules after the unperturbed
	// one (Options.MaxSteps, or twice the steps that one took: steps.go);
	// 0 when that one did not finish.
	MaxSteps int `json:"maxSteps,omitempty"`
	// LongerSteps is the bound of the last longer unperturbed run
	// (longer.go) that stopped there too; 0 when none ran or one ended.
	LongerSteps int `json:"longerSteps,omitempty"`
	// Fresh counts the processes started because the previous one had
	// goroutines left over from an earlier schedule.
	Fresh int `json:"fresh,omitempty"`
	// TargetHits counts the decisions of its unperturbed run at or near
	// Options.Targets: a test with some is searched first (aim.go).
	TargetHits int `json:"targetHits,omitempty"`
	// Kept counts the schedules that ran beside goroutines earlier
	// schedules of their process left, kept parked out of their way
	// (rt/leftover.go) instead of a fresh process each.
	Kept int `json:"kept,omitempty"`
	// OnePerProcess is set when its schedules ran one per process from
	// some point on: every schedule after the first of a process failed
	// one way the first did not (a test that cannot run twice in one
	// process, as go test -count=2 shows).
	OnePerProcess bool `json:"onePerProcess,omitempty"`
	// PerSecond is Schedules over Elapsed.
	PerSecond float64 `json:"perSecond,omitempty"`
	// Met is set when Options.TestUntil accepted a failure of the test:
	// its search ended there.
	Met bool `json:"met,omitempty"`
	// NoChoice is set when its unperturbed run passed with no choice
	// (rt.Result.Choices 0: one goroutine at every decision, no select,
	// timer, map order or random draw another schedule could change):
	// every schedule is that one, so it was not searched further.
	NoChoice bool `json:"noChoice,omitempty"`
}

// StopAtFirst is an Options.TestUntil that accepts any failure: each
// test's search ends at its first failing schedule.
func StopAtFirst(checks.Finding) bool { return true }

// Stats describes a search, during it and at its end.
type Stats struct {
	Schedules int           `json:"schedules"`
	PerSecond float64       `json:"perSecond"`
	Findings  int           `json:"findings"` // unique failures so far
	Elapsed   time.Duration `json:"elapsed"`  // since the search (not the build) began
	Budget    time.Duration `json:"budget"`
	Building  bool          `json:"building,omitempty"`
	// Processes counts the test processes the search started (unperturbed
	// runs, alone or in batches, workers, crashes confirmed), not the
	// replays and plain go test runs after it.
	Processes int `json:"processes"`
	// NoChoice counts the tests not searched past their unperturbed run,
	// which had no choice (TestStats.NoChoice).
	NoChoice int         `json:"noChoice,omitempty"`
	Tests    []TestStats `json:"tests"`
	Current  string      `json:"current,omitempty"` // test being searched
	// Targets is every Options.Targets site: executed by which unperturbed
	// runs, preempted how often.
	Targets []TargetStats `json:"targets,omitempty"`
}

// Result is a finished search.
type Result struct {
	Findings []checks.Finding
	Stats    Stats
	Seed     int64
	// Notes are things the user should know that are not findings: a test
	// whose process hung, a crash that did not reproduce, a failure of the
	// unperturbed schedule that plain go test does not have (most likely
	// the tool's doing). A failure plain go test has too is a finding,
	// labelled so (Finding.PlainGo).
	Notes []string
	// Met is set when Options.Until returned true: the search ended
	// early, after Stats.Schedules schedules in Stats.Elapsed.
	Met bool
}

// BuildError is a package that did not compile, with the compiler's output.
type BuildError struct {
	Package string
	Output  string
}

func (e *BuildError) Error() string {
	return fmt.Sprintf("build %s:\n%s", e.Package, strings.TrimRight(e.Output, "\n"))
}

// Summary is e in one line: the package and the output's first line that
// is not a "# package" header (a compiler error, or how go test ended).
func (e *BuildError) Summary() string {
	for _, l := range strings.Split(e.Output, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "# ") {
			return fmt.Sprintf("build %s: %s", e.Package, l)
		}
	}
	return fmt.Sprintf("build %s: no output", e.Package)
}

// errSummary is err in one line: a BuildError's Summary, else its first
// line.
func errSummary(err error) string {
	var be *BuildError
	if errors.As(err, &be) {
		return be.Summary()
	}
	return firstLine(err.Error())
}

// NoTestsError says that nothing matched.
type NoTestsError struct{ What string }

func (e *NoTestsError) Error() string { return "no tests to run: " + e.What }

func normalize(opts *Options) error {
	if opts.Dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		opts.Dir = wd
	}
	abs, err := filepath.Abs(opts.Dir)
	if err != nil {
		return err
	}
	opts.Dir = abs
	if len(opts.Patterns) == 0 {
		opts.Patterns = []string{"."}
	}
	if opts.Budget <= 0 {
		return fmt.Errorf("budget must be positive, got %v", opts.Budget)
	}
	if opts.Strategy == "" {
		opts.Strategy = Strategies[0]
	}
	if !rt.ValidStrategy(opts.Strategy) {
		return fmt.Errorf("unknown strategy %q: valid values are %s", opts.Strategy, strings.Join(Strategies, ", "))
	}
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.SchedulesDir == "" {
		opts.SchedulesDir = DefaultSchedulesDir
	}
	if opts.Schedules < 0 {
		return fmt.Errorf("schedules must not be negative, got %d", opts.Schedules)
	}
	if opts.StepTimeout <= 0 {
		opts.StepTimeout = DefaultStepTimeout
	}
	if !filepath.IsAbs(opts.SchedulesDir) {
		opts.SchedulesDir = filepath.Join(opts.Dir, opts.SchedulesDir)
	}
	return nil
}
