// Package explore drives interleave's controlled-concurrency search: it
// instruments the packages under test once, builds one test binary per
// package, runs many schedules of each test in worker processes within a hard
// time budget, collects failures from the schedules' results and from the race
// detector's reports, dedupes them, writes a replayable schedule file for each
// and turns them into Findings. Replay re-runs one schedule file in a fresh
// process and says whether the failure happened again.
package explore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
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
	// Tests, when set, lists the tests to run instead of Run; the PR job uses
	// it to split the budget by weight.
	Tests        []TestRef
	Budget       time.Duration // wall time of the search, over all tests (builds excluded)
	Strategy     string        // "portfolio" (default), "random", "pct", "pos" or a list
	Seed         int64         // schedule i of a test uses Seed+i
	Race         bool          // build with the race detector
	SchedulesDir string        // where schedule files go (default DefaultSchedulesDir)
	Workers      int           // worker processes per test (default GOMAXPROCS)
	Targets      []string      // "file.go:12" sites where preemption is favoured
	Progress     func(Stats)   // called about twice a second, and once at the end
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
	// Fresh counts the processes started because the previous one had
	// goroutines left over from an earlier schedule.
	Fresh int `json:"fresh,omitempty"`
}

// Stats describes a search, during it and at its end.
type Stats struct {
	Schedules int           `json:"schedules"`
	PerSecond float64       `json:"perSecond"`
	Findings  int           `json:"findings"` // unique failures so far
	Elapsed   time.Duration `json:"elapsed"`  // since the search (not the build) began
	Budget    time.Duration `json:"budget"`
	Building  bool          `json:"building,omitempty"`
	Tests     []TestStats   `json:"tests"`
	Current   string        `json:"current,omitempty"` // test being searched
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

// NoTestsError says that nothing matched.
type NoTestsError struct{ What string }

func (e *NoTestsError) Error() string { return "no tests to run: " + e.What }

// target is one test to search.
type target struct {
	pkg    rewrite.Package
	name   string
	weight float64
	bin    string
	relDir string // package directory relative to the module root
	stats  *TestStats
	// cost is the measured wall time of a process running one schedule
	// (0 until the unperturbed run measured it); step is the wall time of
	// one schedule inside a running process.
	cost, step time.Duration
	// plainKeys are the keys of the unperturbed run's failures.
	plainKeys map[string]bool
	// plainGo is what plain go test did with the test, run when its
	// unperturbed schedule failed (nil when it was not run), and
	// plainSame the keys of the failures it had too.
	plainGo   *plainOutcome
	plainSame map[string]bool
	// leftGo is plain go test's run for the leaks of later schedules that
	// left goroutines running (checkLeftRunning), when plainGo was not run.
	leftGo *plainOutcome
	// labelGo is plain go test's run after the search, for the labels of
	// its findings, when neither of those ran.
	labelGo *plainOutcome
	// plainStopped is set while the unperturbed run has not finished
	// (stopped at its share, or not run yet): the test is not searched.
	plainStopped bool
	stopReason   string
	// stuckAtStop is set when the unperturbed run was stopped with a
	// goroutine stuck (a hang, perhaps), not while it made progress.
	stuckAtStop bool
	slot        time.Duration // of its last unperturbed run
	retried     bool          // its unperturbed run ran again with more time
	lastStop    *childOutcome // its last unperturbed run, when stopped
	mostSlot    time.Duration // the longest slot its unperturbed run had
	ranNothing  bool          // its binary exited without running a schedule
}

// search is the state of one Run.
type search struct {
	opts      Options
	inst      *rewrite.Result
	workDir   string
	goVersion string

	mu        sync.Mutex
	stats     Stats
	start     time.Time
	failures  map[string]*failure // by key
	counts    map[string]int      // failing schedules, by key
	order     []string
	owners    map[string]*target
	crashes   []pendingCrash
	notes     []string
	noted     map[string]bool      // keys of noteOnce
	noResults []string             // workers whose process ran nothing
	plainBins map[string]*plainBin // by import path: the packages' plain go test binaries
	deadline  time.Time            // end of the search: the budget less overrunSlack
	hardStop  time.Time            // end of the budget: no process outlives it
	// replayUntil, when set, ends the replays of the cause being checked
	// (its fair part of the replays' time).
	replayUntil time.Time
	// noReplayCheck skips replaysAlone (a fake test binary that does
	// not replay schedules).
	noReplayCheck bool
	// shrinkUntil ends the shrinking of failing schedules (shrink.go).
	shrinkUntil time.Time
	// met is set once Options.Until returned true, and untilKeys holds the
	// key of the failure it accepted.
	met       bool
	untilKeys map[string]bool
}

// somePassed reports whether a schedule of t ran to the end without failing.
func (t *target) somePassed() bool {
	return t.stats.Schedules > t.stats.Failures+t.stats.Crashes
}

// plainIndex is the schedule index of the unperturbed run: it runs in a
// process of its own, so the index only has to differ from the workers'
// in the files it names.
const plainIndex = 0

// overrunSlack is the last part of the budget, after the search's own end
// (deadline): the processes in flight then report and exit in it, and the
// watchdog kills what still runs at its end (hardStop, the end of the
// budget). 2% of the budget, a second when that is more, but never more
// than 5% of it: the budget is kept within 5%.
func overrunSlack(budget time.Duration) time.Duration {
	return min(max(budget/50, time.Second), budget/20)
}

// budgetEnds returns the end of the search (deadline) and the end of the
// budget (hardStop: no process outlives it) of a search that began after
// the build at start.
func budgetEnds(start time.Time, budget time.Duration) (deadline, hardStop time.Time) {
	hardStop = start.Add(budget)
	return hardStop.Add(-overrunSlack(budget)), hardStop
}

// fairShare is the part of what is left until end that the first of n
// items still to run gets (0 when nothing is left).
func fairShare(now, end time.Time, n int) time.Duration {
	left := end.Sub(now)
	if left <= 0 || n <= 0 {
		return 0
	}
	return left / time.Duration(n)
}

type pendingCrash struct {
	t     *target
	seed  int64
	f     *failure
	index int
}

// Run searches schedules of the selected tests for opts.Budget and returns
// the unique failures as findings.
func Run(ctx context.Context, opts Options) (*Result, error) {
	if err := normalize(&opts); err != nil {
		return nil, err
	}
	var runRE *regexp.Regexp
	if opts.Run != "" {
		re, err := regexp.Compile(opts.Run)
		if err != nil {
			return nil, fmt.Errorf("bad -run pattern %q: %w", opts.Run, err)
		}
		runRE = re
	}
	s := &search{opts: opts, failures: map[string]*failure{}, counts: map[string]int{}, owners: map[string]*target{}, plainBins: map[string]*plainBin{}}
	s.stats.Budget = opts.Budget
	s.stats.Building = true
	s.progress()

	endStage := s.stage("loading and instrumenting " + strings.Join(opts.Patterns, " "))
	inst, err := instrument(ctx, opts.Dir, opts.Patterns, opts.Race)
	if err != nil {
		return nil, err
	}
	endStage(inst.DepSummary())
	defer inst.Cleanup()
	s.inst = inst
	work, err := os.MkdirTemp("", "interleave-explore-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	s.workDir = work
	s.goVersion = goVersion(ctx, inst.ModuleRoot)

	targets, err := s.selectTests(runRE)
	if err != nil {
		return nil, err
	}
	s.noteUncontrolled(targets)
	// One build per package. A package that does not build is left out
	// with a note, unless no package builds.
	bins := map[string]string{}
	var firstErr error
	for _, t := range targets {
		if _, ok := bins[t.pkg.ImportPath]; ok {
			continue
		}
		bin := filepath.Join(work, fmt.Sprintf("pkg%d.test", len(bins)))
		what := "building the test binary of " + t.pkg.ImportPath
		if opts.Race {
			what += " with the race detector (the first build also compiles the standard library and the dependencies for it)"
		}
		endStage := s.stage(what)
		// The plain go test binary (the package as it is) builds
		// alongside, outside the budget: it decides what fails without
		// interleave too.
		plainDone := make(chan struct{})
		go func() {
			defer close(plainDone)
			s.plainBin(ctx, t.pkg)
		}()
		err := build(ctx, inst, t.pkg.ImportPath, bin, opts.Race)
		<-plainDone
		if err != nil {
			var be *BuildError
			if !errors.As(err, &be) {
				return nil, err
			}
			firstErr = cmp.Or(firstErr, err)
			s.note(fmt.Sprintf("%s not searched: it does not build under the rewrite:\n%s", t.pkg.ImportPath, tailLines(be.Output, 10)))
			bin = ""
		}
		endStage("")
		bins[t.pkg.ImportPath] = bin
	}
	var built []*target
	for _, t := range targets {
		if t.bin = bins[t.pkg.ImportPath]; t.bin != "" {
			built = append(built, t)
		}
	}
	if len(built) == 0 {
		return nil, firstErr
	}
	return s.explore(ctx, built)
}

// noteStopped says in one note how many schedules were stopped unfinished
// when their test's share of the budget ran out, and of which tests.
func (s *search) noteStopped(targets []*target) {
	n := 0
	var names []string
	for _, t := range targets {
		if t.stats.Stopped > 0 {
			n += t.stats.Stopped
			names = append(names, t.name)
		}
	}
	if n == 0 {
		return
	}
	if len(names) > maxUncontrolled {
		names = append(names[:maxUncontrolled:maxUncontrolled], fmt.Sprintf("%d more", len(names)-maxUncontrolled))
	}
	s.note(fmt.Sprintf("%d %s stopped unfinished when the share of the budget of %s ran out: inconclusive (each test ran its unperturbed schedule to its end)",
		n, plural(n, "schedule"), strings.Join(names, ", ")))
}

// maxUncontrolled bounds the constructs a note lists per package.
const maxUncontrolled = 10

// noteUncontrolled adds one note per searched package listing what the
// rewriter left as written (the scheduler does not see those operations).
func (s *search) noteUncontrolled(targets []*target) {
	byDir := map[string][]string{}
	for _, w := range s.inst.Warnings {
		file := w
		if i := strings.Index(w, ".go:"); i >= 0 {
			file = w[:i+3]
		}
		dir := filepath.Dir(file)
		msg := w
		if rel, err := filepath.Rel(s.inst.ModuleRoot, w); err == nil && !strings.HasPrefix(rel, "..") {
			msg = filepath.ToSlash(rel)
		}
		byDir[dir] = append(byDir[dir], msg)
	}
	seen := map[string]bool{}
	for _, t := range targets {
		if seen[t.pkg.ImportPath] {
			continue
		}
		seen[t.pkg.ImportPath] = true
		ws := byDir[filepath.Clean(t.pkg.Dir)]
		if len(ws) == 0 {
			continue
		}
		shown := ws
		if len(shown) > maxUncontrolled {
			shown = append(append([]string(nil), ws[:maxUncontrolled]...), fmt.Sprintf("and %d more", len(ws)-maxUncontrolled))
		}
		s.note(fmt.Sprintf("%s: %d %s left uncontrolled (the scheduler does not see them):\n  %s",
			t.pkg.ImportPath, len(ws), plural(len(ws), "operation"), strings.Join(shown, "\n  ")))
	}
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// explore searches the built targets for the budget and collects findings.
func (s *search) explore(ctx context.Context, targets []*target) (*Result, error) {
	opts := s.opts
	s.mu.Lock()
	s.stats.Tests = nil
	for _, t := range targets {
		s.stats.Tests = append(s.stats.Tests, TestStats{Package: t.pkg.ImportPath, Test: t.name})
	}
	for i, t := range targets {
		t.stats = &s.stats.Tests[i]
	}
	s.start = time.Now()
	s.stats.Building = false
	s.mu.Unlock()
	stopProgress := s.startProgress()
	// One deadline, computed once after the build: every stage below
	// takes from what is left of it.
	s.deadline, s.hardStop = budgetEnds(s.start, opts.Budget)
	// First every test's unperturbed schedule, each in a fresh process:
	// its wall time is the test's measured cost, and plain go test decides
	// which of its failures fail without interleave too.
	s.plainRuns(ctx, targets)
	if opts.Until != nil {
		for _, t := range targets {
			s.confirmCrashes(ctx, t)
		}
	}
	// Then the search of the tests whose unperturbed run finished. Tests
	// run one after another, each with every worker; a test's slice is its
	// share of what is left, half by weight alone and half by weight times
	// measured cost, when that is enough for one process of one schedule
	// (else nothing: its unperturbed schedule ran); time one test does not
	// use goes to the others.
	var searched []*target
	for _, t := range targets {
		if !t.plainStopped {
			searched = append(searched, t)
		}
	}
	shares, costs := budgetShares(searched)
	for i, t := range searched {
		if ctx.Err() != nil || time.Until(s.deadline) <= 0 || s.isMet() {
			break
		}
		slice := searchSlice(time.Until(s.deadline)-s.shrinkReserve(), shares[i:], costs[i:])
		s.mu.Lock()
		s.stats.Current = t.pkg.ImportPath + "." + t.name
		s.mu.Unlock()
		endStage := s.stage(fmt.Sprintf("searching %s.%s (%d/%d) for %v", t.pkg.ImportPath, t.name, i+1, len(searched), slice.Round(100*time.Millisecond)))
		began := time.Now()
		s.searchTest(ctx, t, began.Add(slice))
		// A crash is confirmed in a fresh process right away, inside the
		// budget, and so is whether plain go test leaves running what
		// some schedule did.
		s.confirmCrashes(ctx, t)
		s.checkLeftRunning(ctx, t)
		s.mu.Lock()
		t.stats.Elapsed += time.Since(began)
		detail := fmt.Sprintf("%d schedules, %d failing", t.stats.Schedules, t.stats.Failures)
		s.mu.Unlock()
		endStage(detail)
	}
	// Crashes of the unperturbed runs of tests not searched after them.
	for _, t := range targets {
		s.confirmCrashes(ctx, t)
	}
	s.noteStopped(targets)
	stopProgress()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	noResults := s.noResults
	s.mu.Unlock()
	if len(noResults) > 0 && s.stats.Schedules == 0 && len(s.failures) == 0 {
		return nil, fmt.Errorf("the instrumented test binary ran no schedules:\n%s", noResults[0])
	}
	if opts.afterSearch != nil {
		opts.afterSearch(s)
	}
	res := &Result{Seed: opts.Seed, Met: s.isMet()}
	endStage := func(string) {}
	if len(s.order) > 0 {
		endStage = s.stage(fmt.Sprintf("shrinking and telling %d failing %s", len(s.order), plural(len(s.order), "schedule")))
	}
	defer endStage("")
	var replayed []string      // keys of res.Findings, in order
	var cands []checks.Finding // findings to replay, of failures candKeys
	var candKeys []string
	var tools []toolFailure // failures noted as the tool's doing
	for _, k := range s.order {
		f, t := s.failures[k], s.owners[k]
		finding, err := s.finding(ctx, f, t, false)
		if err != nil {
			return nil, err
		}
		unperturbed := t.plainKeys[f.key()] && !f.isHang() && !f.isLivelock() && f.kind != checks.DataRace
		if unperturbed && t.plainGo != nil && t.plainGo.err == nil && !t.plainSame[f.key()] && !t.somePassed() {
			// Every schedule fails, the one with no preemption at all
			// included, but plain go test does not fail this way: what
			// differs is the tool, not the interleaving. Never told as the
			// test's own. (When some schedules pass, it depends on the
			// interleaving: a finding, labelled "plain go test passes",
			// never "fails too".)
			s.note(fmt.Sprintf("%s: not reported, most likely the tool's doing: the unperturbed schedule under interleave fails (%s) but %s; to look: %s",
				t.name, firstLine(f.message), t.plainGo.howPlain(), finding.Replay))
			tools = append(tools, toolFailure{pkg: t.pkg.ImportPath, test: t.name, msg: normalizeMessage(f.message), site: f.site})
			continue
		}
		cands = append(cands, finding)
		candKeys = append(candKeys, k)
	}
	// One finding per cause (group.go): the members of a cause are tried
	// in order until one replays alone; the rest are listed in it. The
	// replays take what is left of the budget but the plain go test runs'
	// part (postReserve of the tests with findings), each cause its fair
	// part of that.
	groups := causes(cands)
	replayEnd := s.hardStop.Add(-s.labelReserve(candKeys))
	for gi, g := range groups {
		now := time.Now()
		if !s.hardStop.IsZero() {
			s.replayUntil = now.Add(fairShare(now, replayEnd, len(groups)-gi))
		}
		s.untilFirst(g, candKeys)
		for n, i := range g {
			f, t, finding := s.failures[candKeys[i]], s.owners[candKeys[i]], cands[i]
			if why, unchecked := s.replaysAlone(ctx, t, &finding); unchecked {
				s.note(fmt.Sprintf("%s: not reported: it failed (%s) with seed %d, but every finding must replay alone in a fresh process and %s; to look: %s",
					t.name, firstLine(f.message), f.seed, why, finding.Replay))
				continue
			} else if why != "" {
				s.note(fmt.Sprintf("%s: not reported: it failed (%s) with seed %d, but its schedule run alone in a fresh process did not, %d times (the last: %s): something outside the schedule caused it; to look: %s",
					t.name, firstLine(f.message), f.seed, replayTries, why, finding.Replay))
				continue
			}
			var others []checks.Finding
			for _, j := range g[n+1:] {
				others = append(others, cands[j])
			}
			if c := s.counts[candKeys[i]]; c > 0 {
				finding.Frequency = &checks.Frequency{Failing: c, Schedules: max(c, t.stats.Schedules)}
			}
			res.Findings = append(res.Findings, fold(finding, others))
			replayed = append(replayed, candKeys[i])
			break
		}
	}
	s.replayUntil = time.Time{}
	// What plain go test does with each finding's test: a label, and for
	// a failure the tool caused in a sibling test, the check that keeps
	// it from being told as this test's own.
	res.Findings, replayed = s.labelPlain(ctx, res.Findings, replayed, tools)
	// Every finding replayed alone: now shrunk, with the time left
	// (shrinking keeps only what a fresh replay reproduces).
	for i, k := range replayed {
		f, t := s.failures[k], s.owners[k]
		if shrunk, err := s.finding(ctx, f, t, true); err == nil && shrunk.Schedule == res.Findings[i].Schedule {
			res.Findings[i].Interleaving, res.Findings[i].ReplayToken = shrunk.Interleaving, shrunk.ReplayToken
		}
	}
	checks.Sort(res.Findings)
	s.mu.Lock()
	res.Notes = s.notes
	s.stats.Findings = len(res.Findings)
	s.stats.Current = ""
	res.Stats = s.snapshot()
	s.mu.Unlock()
	if opts.Progress != nil {
		opts.Progress(res.Stats)
	}
	return res, nil
}

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
	if opts.StepTimeout <= 0 {
		opts.StepTimeout = DefaultStepTimeout
	}
	if !filepath.IsAbs(opts.SchedulesDir) {
		opts.SchedulesDir = filepath.Join(opts.Dir, opts.SchedulesDir)
	}
	return nil
}

// instrument runs the rewriter, turning its build error into ours. race
// says the tests are built with -race, which sets the race build tag: the
// rewrite and the driver use the files of that build.
func instrument(ctx context.Context, dir string, patterns []string, race bool) (*rewrite.Result, error) {
	return instrumentOverlay(ctx, dir, patterns, race, nil)
}

// instrumentOverlay is instrument with files added to the packages.
func instrumentOverlay(ctx context.Context, dir string, patterns []string, race bool, overlay map[string][]byte) (*rewrite.Result, error) {
	var flags []string
	if race {
		flags = []string{"-race"}
	}
	inst, err := rewrite.Instrument(ctx, rewrite.Options{Dir: dir, Patterns: patterns, BuildFlags: flags, Overlay: overlay})
	if err != nil {
		var be *rewrite.BuildError
		if errors.As(err, &be) {
			out := strings.Join(be.Errors, "\n")
			if be.Hint != "" {
				out += "\n" + be.Hint
			}
			return nil, &BuildError{Package: strings.Join(patterns, " "), Output: out}
		}
		return nil, fmt.Errorf("instrument %s: %w", strings.Join(patterns, " "), err)
	}
	return inst, nil
}

// build compiles the instrumented test binary of one package.
func build(ctx context.Context, inst *rewrite.Result, pkg, bin string, race bool) error {
	// -vet=off: vet would check the rewritten code, which is not the
	// user's, and it chdirs into the runtime's directory, which exists only
	// in the overlay.
	args := []string{"test", "-c", "-vet=off", "-o", bin, "-overlay", inst.Overlay}
	if inst.ModFile != "" {
		args = append(args, "-modfile", inst.ModFile) // rewritten dependencies
	}
	if race {
		args = append(args, "-race")
	}
	args = append(args, pkg)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = inst.ModuleRoot
	out, err := cmd.CombinedOutput()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return &BuildError{Package: pkg, Output: string(out) + err.Error()}
	}
	if _, err := os.Stat(bin); err != nil {
		return &BuildError{Package: pkg, Output: "go test -c wrote no binary (does the package have tests?)\n" + string(out)}
	}
	return nil
}

func goVersion(ctx context.Context, dir string) string {
	cmd := exec.CommandContext(ctx, "go", "env", "GOVERSION")
	cmd.Dir = dir
	if out, err := cmd.Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	return runtime.Version()
}

// selectTests picks the tests to search from the instrumented packages.
func (s *search) selectTests(runRE *regexp.Regexp) ([]*target, error) {
	var out []*target
	mk := func(p rewrite.Package, name string, w float64) *target {
		if w <= 0 {
			w = 1
		}
		rel, err := filepath.Rel(s.inst.ModuleRoot, p.Dir)
		if err != nil {
			rel = p.Dir
		}
		return &target{pkg: p, name: name, weight: w, relDir: filepath.ToSlash(rel)}
	}
	if len(s.opts.Tests) > 0 {
		var excluded []string
		for _, ref := range s.opts.Tests {
			found, why := false, ""
			for _, p := range s.inst.Packages {
				if p.ImportPath != ref.Package {
					continue
				}
				for _, n := range p.Tests {
					if n == ref.Name {
						out = append(out, mk(p, n, ref.Weight))
						found = true
					}
				}
				if file, ok := p.Excluded[ref.Name]; ok && !found {
					why = s.notInBuild(p, ref.Name, file)
				}
			}
			switch {
			case found:
			case why != "":
				// Another build (without -race, other tags) has it: the
				// others are still searched.
				excluded = append(excluded, why)
			default:
				return nil, &NoTestsError{What: fmt.Sprintf("test %s.%s not found", ref.Package, ref.Name)}
			}
		}
		if len(out) == 0 {
			return nil, &NoTestsError{What: strings.Join(excluded, "; ")}
		}
		for _, n := range excluded {
			s.note(n)
		}
		return out, nil
	}
	var excluded []string
	for _, p := range s.inst.Packages {
		for _, n := range p.Tests {
			if runRE == nil || runRE.MatchString(n) {
				out = append(out, mk(p, n, 1))
			}
		}
		if runRE != nil {
			for n, file := range p.Excluded {
				if runRE.MatchString(n) {
					excluded = append(excluded, s.notInBuild(p, n, file))
				}
			}
		}
	}
	if len(out) == 0 {
		what := "no Test functions in " + strings.Join(s.opts.Patterns, " ")
		if runRE != nil {
			what = fmt.Sprintf("no test in %s matches -run %q", strings.Join(s.opts.Patterns, " "), s.opts.Run)
		}
		if len(excluded) > 0 {
			sort.Strings(excluded)
			what += " (" + strings.Join(excluded, "; ") + ")"
		}
		return nil, &NoTestsError{What: what}
	}
	return out, nil
}

// notInBuild says why test name of p, declared in file, is not searched:
// the build excludes its file.
func (s *search) notInBuild(p rewrite.Package, name, file string) string {
	how := "its build constraints"
	if s.opts.Race {
		how += " (-race sets the race tag)"
	}
	return fmt.Sprintf("%s.%s not searched: %s is not in this build, %s exclude it", p.ImportPath, name, filepath.Base(file), how)
}

// workerStride separates the schedule indexes of workers, so that no two
// workers ever run the same seed.
const workerStride = 1 << 32

// searchTest runs Workers processes of one test until stop.
func (s *search) searchTest(ctx context.Context, t *target, stop time.Time) {
	var wg sync.WaitGroup
	for k := 0; k < s.opts.Workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.worker(ctx, t, k, stop)
		}()
	}
	wg.Wait()
}

// plainRuns runs the unperturbed schedule of every test, each in a fresh
// process, Workers at a time. The first pass, within the first third of
// the budget, gives each test its fair part of what is left of that third
// and stops it there: a slow test cannot eat the others' turn. The second
// gives the tests the first did not reach theirs, within a third of what
// is then left. Then rounds run again the tests stopped (the slow ones
// first, then those with a goroutine stuck), until two thirds of the
// budget when some test can be searched (the last third is the search's),
// else until its end: each gets its fair part of what is left, at least
// twice what it had (and at least the full watchdog when it was stuck), so
// the shorter ones finish first and a lone slow one gets all that is left;
// a test whose unperturbed run fits gets that one complete schedule, and
// one that never returns meets the full watchdog. A test whose unperturbed run does not finish
// even so is not searched (a note says so).
func (s *search) plainRuns(ctx context.Context, targets []*target) {
	for _, t := range targets {
		t.plainStopped = true
	}
	s.plainPass(ctx, targets, s.start.Add(s.opts.Budget/3), nil)
	var unrun []*target
	for _, t := range targets {
		if t.stopReason == "" && t.plainStopped {
			unrun = append(unrun, t)
		}
	}
	if len(unrun) > 0 {
		s.plainPass(ctx, unrun, time.Now().Add(time.Until(s.deadline)/3), nil)
	}
	for ctx.Err() == nil {
		// Until two thirds of the budget when some test can be searched
		// (the search beyond the unperturbed schedules keeps the last
		// third: a test that never finishes must not take every other
		// test's search; gocron's TestScheduler_ManyJobs did), else until
		// its end; never past the end less what shrinking the failures
		// found so far needs.
		end := s.deadline.Add(-s.shrinkReserve())
		if cut := s.start.Add(2 * s.opts.Budget / 3); cut.Before(end) && slices.ContainsFunc(targets, func(t *target) bool { return !t.plainStopped }) {
			end = cut
		}
		var stuck, slow []*target
		for _, t := range targets {
			switch {
			case t.plainStopped && t.stuckAtStop:
				stuck = append(stuck, t)
			case t.plainStopped && t.stopReason != "" && !t.ranNothing:
				slow = append(slow, t)
			}
		}
		// The slow ones first, then the stuck ones (a test stopped with a
		// goroutine stuck may never finish, and its full watchdog would
		// take the time a slow one needs), each the shortest first.
		bySlot := func(ts []*target) {
			sort.SliceStable(ts, func(i, j int) bool { return ts[i].slot < ts[j].slot })
		}
		bySlot(slow)
		bySlot(stuck)
		again := append(slow, stuck...)
		if len(again) == 0 || time.Until(end) <= 0 {
			break
		}
		had := map[*target]time.Duration{}
		for _, t := range again {
			had[t] = t.slot
		}
		started := 0
		s.plainPass(ctx, again, end, func(t *target, slot time.Duration) time.Duration {
			want := max(slot, 2*had[t])
			if t.stuckAtStop {
				want = max(want, s.opts.StepTimeout+time.Second)
			}
			want = min(want, time.Until(end))
			if want <= had[t] {
				return 0 // no more than it had: not run
			}
			t.retried = true
			started++
			return want
		})
		if started == 0 {
			break
		}
	}
	for _, t := range targets {
		if out := t.lastStop; t.plainStopped && out != nil && !t.ranNothing {
			// Its last run counts and says where it was when stopped
			// (a goroutine stuck at a site, or its last output).
			plain := ""
			for _, r := range out.results {
				s.counted(t, r)
				plain = r.Outcome
			}
			s.mu.Lock()
			t.stats.Plain = plain
			s.mu.Unlock()
			s.collectPlain(t, out)
		}
	}
	for _, t := range targets {
		if t.plainStopped {
			why := "not run: the budget ran out first"
			switch {
			case t.ranNothing:
				why = "did not run: " + t.stopReason
			case t.retried:
				why = fmt.Sprintf("did not finish in the %v it was given at most (last %s): its one schedule takes longer than the budget could give it (-budget is %v)",
					t.mostSlot.Round(100*time.Millisecond), t.stopReason, s.opts.Budget)
			case t.stopReason != "":
				why = "did not finish in its first share of the budget (" + t.stopReason + ") and the budget ran out before it could run with more"
			}
			s.noteOnce(t.name+"|plain", fmt.Sprintf("%s: not searched: its unperturbed run %s", t.name, why))
		}
	}
}

// plainPass runs the unperturbed runs of targets until end, Workers at a
// time; each may take its fair part of what is left until end (its slot),
// as adjust(t, slot) changes it when set (a test it gives none is not
// run). A test stopped early is only marked: plainRuns notes it at the end.
func (s *search) plainPass(ctx context.Context, targets []*target, end time.Time, adjust func(t *target, slot time.Duration) time.Duration) {
	sem := make(chan struct{}, s.opts.Workers)
	var wg sync.WaitGroup
	for i, t := range targets {
		if ctx.Err() != nil || time.Until(end) <= 0 {
			break
		}
		sem <- struct{}{}
		// What is left until end, shared by the tests not started yet
		// (the running ones hold theirs).
		slot := time.Duration(float64(time.Until(end)) * float64(s.opts.Workers) / float64(len(targets)-i))
		if adjust != nil {
			slot = adjust(t, slot)
		}
		slot = min(slot, time.Until(end))
		if slot <= 0 {
			<-sem
			continue // not run (the loop ends when time is up)
		}
		t.slot = slot
		t.mostSlot = max(t.mostSlot, slot)
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			s.plainRun(ctx, t, slot)
		}()
	}
	wg.Wait()
}

// plainRun runs t's unperturbed schedule for at most slot and measures its
// cost. A run stopped at the end of its slot (before the full watchdog)
// is only marked: a later pass may run it again.
func (s *search) plainRun(ctx context.Context, t *target, slot time.Duration) {
	// Stopped at the end of its slot: the runtime reports a goroutine
	// stuck then (it waits half a second past its deadline), a schedule
	// still making progress is killed.
	limit := time.Now().Add(slot - min(slot/2, 500*time.Millisecond))
	hard := limit.Add(time.Second)
	if limit.After(s.deadline) {
		limit = s.deadline
	}
	if hard.After(s.hardStop) {
		hard = s.hardStop
	}
	c := &child{
		bin:     t.bin,
		dir:     t.pkg.Dir,
		workDir: s.workDir,
		cfg: rt.Config{
			Test:        t.name,
			Strategy:    rt.PlainStrategy,
			Seed:        s.opts.Seed,
			First:       plainIndex,
			Schedules:   1,
			Deadline:    limit,
			StepTimeout: s.opts.StepTimeout,
		},
	}
	began := time.Now()
	out, err := c.run(ctx, hard, fmt.Sprintf("%s-%s-plain", sanitize(t.pkg.ImportPath), t.name))
	cost := time.Since(began)
	if err != nil {
		s.note(fmt.Sprintf("%s: %v", t.name, err))
		return
	}
	s.mu.Lock()
	t.stats.Elapsed += cost
	s.mu.Unlock()
	plain := ""
	// Killed after its schedule ended (exiting): the schedule's result stands.
	stopped := out.killed && (out.crashed >= 0 || len(out.results) == 0)
	for _, r := range out.results {
		plain = r.Outcome
		if r.Watchdog > 0 && r.Watchdog < s.opts.StepTimeout {
			stopped = true // the budget's watchdog, not the full one
		}
	}
	if plain == "" && out.crashed < 0 {
		stopped = true
	}
	if !out.killed && out.started == 0 && len(out.results) == 0 {
		// The binary ran nothing and exited (a skip, a TestMain that
		// does not run the tests): said once, not retried.
		s.afterProcess(ctx, t, out, s.deadline)
		s.mu.Lock()
		t.stopReason = "the test binary ran no schedule"
		t.ranNothing = true
		s.mu.Unlock()
		return
	}
	if stopped {
		if out.started == 0 && len(out.results) == 0 {
			// Hung before its first schedule: if no test runs anything,
			// the search fails with this.
			s.afterProcess(ctx, t, out, s.deadline)
		}
		s.mu.Lock()
		t.stopReason = fmt.Sprintf("stopped after %v", cost.Round(100*time.Millisecond))
		for _, r := range out.results {
			t.stuckAtStop = t.stuckAtStop || r.Watchdog > 0
		}
		t.lastStop = out
		s.mu.Unlock()
		return
	}
	for _, r := range out.results {
		s.counted(t, r)
	}
	s.mu.Lock()
	t.plainStopped = false
	t.cost = cost
	t.stats.Cost = cost
	t.stats.Plain = plain
	s.mu.Unlock()
	keys := s.collectPlain(t, out)
	s.afterProcess(ctx, t, out, s.deadline)
	s.checkPlain(ctx, t, keys)
}

// checkPlain runs t under plain go test when its unperturbed schedule
// failed in a way plain go test can tell (not a race, which is a finding
// on any schedule, nor a hang or the step bound), and records which of
// those failures plain go test has too.
func (s *search) checkPlain(ctx context.Context, t *target, keys map[string]bool) {
	s.mu.Lock()
	var fs []*failure
	for k := range keys {
		f := s.failures[t.name+"|"+k]
		for _, pc := range s.crashes {
			if f == nil && pc.t == t && pc.f.key() == k {
				f = pc.f
			}
		}
		if f != nil && f.kind != checks.DataRace && !f.isHang() && !f.isLivelock() {
			fs = append(fs, f)
		}
	}
	s.mu.Unlock()
	if len(fs) == 0 {
		return
	}
	pb := s.plainBin(ctx, t.pkg)
	if pb.err != nil {
		s.mu.Lock()
		t.plainGo = &plainOutcome{err: pb.err}
		s.mu.Unlock()
		return
	}
	// Long enough for a test that passes; a deadlock needs only to be
	// seen hanging once.
	timeout := min(max(2*t.cost, 10*time.Second), time.Until(s.deadline))
	if timeout < time.Second {
		return // the budget is spent: not decided
	}
	ctx, cancel := context.WithDeadline(ctx, s.deadline)
	defer cancel()
	n := 1
	for _, f := range fs {
		if f.kind != checks.Deadlock {
			n = plainRuns
		}
	}
	same := map[string]bool{}
	out := s.runPlain(ctx, t, pb.bin, n, timeout, func(r plainRun) bool {
		for _, f := range fs {
			if sameAsPlain(f, r, t.pkg.Dir) {
				same[f.key()] = true
			}
		}
		return len(same) == len(fs)
	})
	s.mu.Lock()
	t.plainGo, t.plainSame = out, same
	s.mu.Unlock()
}

// shrinkReserve is the part of the budget the search leaves for what
// follows it: replaying each failure found so far alone, running its
// test under plain go test, shrinking and telling it. Half of a tenth of
// the budget (at most shrinkTime) when there are none yet, for those a
// test's slice may still find, with two processes' start-up (a finding
// whose replay check finds no time left is not reported); else what
// their replays and plain runs take by their tests' measured cost, at
// least that tenth, at most a quarter of the budget.
func (s *search) shrinkReserve() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	base := min(shrinkTime, s.opts.Budget/10)
	if len(s.order) == 0 && len(s.crashes) == 0 {
		// And the start-up of two processes: a replay that comes too late
		// for a small budget does not report the finding.
		return min(base/2+2*processStartup, s.opts.Budget/4)
	}
	var costs, plainRan []time.Duration
	for _, k := range s.order {
		switch t := s.owners[k]; {
		case t == nil:
		case t.plainGo != nil && t.plainGo.err == nil || t.leftGo != nil && t.leftGo.err == nil:
			plainRan = append(plainRan, t.cost)
		default:
			costs = append(costs, t.cost)
		}
	}
	return postReserve(base, s.opts.Budget/4, costs, plainRan)
}

// postReserve is the time kept after the search for failures whose
// tests cost costs (one process, one schedule): one replay that
// reproduces and plainRuns plain go test runs each, and the start-up of
// a process twice (the runs of a test share a warm cache); only the
// replay for those of plainRan, whose test ran under plain go test
// already; at least least, at most most.
func postReserve(least, most time.Duration, costs, plainRan []time.Duration) time.Duration {
	var need time.Duration
	for _, c := range costs {
		need += (1+plainRuns)*c + 2*processStartup
	}
	for _, c := range plainRan {
		need += c + processStartup
	}
	return min(max(need, least), most)
}

// labelReserve is the part of what is left of the budget kept, while
// findings replay, for running under plain go test the tests of the
// failures keys that have not run there yet: plainRuns runs each by its
// measured cost, at most a third of what is left (a finding that does
// not replay is not reported; its label can say plain go test did not run).
func (s *search) labelReserve(keys []string) time.Duration {
	seen := map[*target]bool{}
	var need time.Duration
	for _, k := range keys {
		t := s.owners[k]
		if t == nil || seen[t] || t.plainGo != nil && t.plainGo.err == nil || t.leftGo != nil && t.leftGo.err == nil {
			continue
		}
		seen[t] = true
		need += plainRuns * (t.cost + processStartup)
	}
	return min(need, max(time.Until(s.hardStop), 0)/3)
}

// processStartup is what starting and ending one test process adds to
// its test's cost, as postReserve counts it.
const processStartup = 300 * time.Millisecond

// searchSlice is the wall time the first of the tests still to search
// gets out of left: its share of what is left, shared among the tests
// whose part is enough for one process of one schedule (costs are the
// measured cost of each). A test whose part is not gets nothing here (its
// unperturbed schedule ran already) and leaves its part to the others.
func searchSlice(left time.Duration, shares []float64, costs []time.Duration) time.Duration {
	if len(shares) == 0 || left <= 0 {
		return 0
	}
	one := func(j int) time.Duration { return costs[j] + costs[j]/5 + 100*time.Millisecond }
	in := make([]bool, len(shares))
	for j := range in {
		in[j] = true
	}
	for {
		var rest float64
		for j, x := range shares {
			if in[j] {
				rest += x
			}
		}
		if rest <= 0 {
			return 0
		}
		// Drop the test whose part falls furthest short of its one
		// process, then share again.
		worst, ratio := -1, 1.0
		for j, x := range shares {
			if !in[j] {
				continue
			}
			part := float64(left) * x / rest
			if r := float64(one(j)) / part; part <= 0 || r > ratio {
				worst, ratio = j, r
				if part <= 0 {
					break
				}
			}
		}
		if worst < 0 {
			return time.Duration(float64(left) * shares[0] / rest)
		}
		if worst == 0 {
			return 0
		}
		in[worst] = false
	}
}

// budgetShares returns each test's share of the search: half by weight,
// half by weight times measured cost, and the costs it used. A test whose
// cost is unknown (its unperturbed run did not finish, or hung) counts
// with the mean cost.
func budgetShares(targets []*target) ([]float64, []time.Duration) {
	var wsum, csum, known float64
	n := 0
	for _, t := range targets {
		wsum += t.weight
		if t.cost > 0 && t.stats.Plain != "" && !strings.HasPrefix(t.stats.Plain, "fatal") {
			known += t.cost.Seconds()
			n++
		}
	}
	mean := 1.0
	if n > 0 {
		mean = known / float64(n)
	}
	cost := func(t *target) float64 {
		if t.cost > 0 && t.stats.Plain != "" && !strings.HasPrefix(t.stats.Plain, "fatal") {
			return t.cost.Seconds()
		}
		return mean
	}
	for _, t := range targets {
		csum += t.weight * cost(t)
	}
	out := make([]float64, len(targets))
	costs := make([]time.Duration, len(targets))
	for i, t := range targets {
		out[i] = t.weight/wsum/2 + t.weight*cost(t)/csum/2
		costs[i] = time.Duration(cost(t) * float64(time.Second))
	}
	return out, costs
}

// counted records a finished schedule; the longest one so far is what a
// worker keeps free at the end of the test's slice.
func (s *search) counted(t *target, r rt.Result) {
	s.mu.Lock()
	s.stats.Schedules++
	t.stats.Schedules++
	t.step = max(t.step, r.Elapsed)
	s.mu.Unlock()
}

// worker runs one process after another until stop: a process that dies,
// or stops because of leftovers, is replaced, starting with the schedule
// after the last one it ran.
func (s *search) worker(ctx context.Context, t *target, k int, stop time.Time) {
	first := k * workerStride
	// Start no schedule that would end past stop.
	s.mu.Lock()
	last := stop.Add(-t.step)
	s.mu.Unlock()
	// The schedule in flight at stop may finish, for a moment: a test
	// never runs long past its slice.
	hard := stop.Add(min(max(time.Until(stop)/2, time.Second), childGrace))
	if hard.After(s.hardStop) {
		hard = s.hardStop
	}
	for run := 0; ctx.Err() == nil && time.Until(last) > 0 && !s.isMet(); run++ {
		c := &child{
			bin:     t.bin,
			dir:     t.pkg.Dir,
			workDir: s.workDir,
			cfg: rt.Config{
				Test:        t.name,
				Strategy:    s.opts.Strategy,
				Seed:        s.opts.Seed,
				First:       first,
				Deadline:    last,
				Until:       stop,
				StepTimeout: s.opts.StepTimeout,
				Targets:     s.opts.Targets,
				StopOnFail:  s.opts.Until != nil,
			},
			onResult: func(r rt.Result) { s.counted(t, r) },
		}
		name := fmt.Sprintf("%s-%s-w%d-r%d", sanitize(t.pkg.ImportPath), t.name, k, run)
		out, err := c.run(ctx, hard, name)
		if err != nil {
			s.note(fmt.Sprintf("%s: %v", t.name, err))
			return
		}
		s.collect(t, out, k*workerStride, s.opts.Strategy)
		if s.opts.Until != nil {
			// Until wants a crash as soon as it happens.
			s.confirmCrashes(ctx, t)
		}
		next, more := s.afterProcess(ctx, t, out, stop)
		if !more {
			return
		}
		if next > first {
			first = next
		}
	}
}

// collect records the failures of one process's schedules and returns
// their keys. base is the index of the worker's first schedule.
func (s *search) collect(t *target, out *childOutcome, base int, strategy string) map[string]bool {
	keys := map[string]bool{}
	add := func(f *failure, index int) {
		f.strategy = strategy
		keys[f.key()] = true
		s.add(t, f)
		if strategy != rt.PlainStrategy {
			s.failedAt(t, index-base+1)
		}
	}
	byIndex := map[int]rt.Result{}
	for _, r := range out.results {
		byIndex[r.Index] = r
		if f, ok := fromResult(r); ok {
			withLog(f, out.logs[r.Index], t.pkg.Dir)
			if raceEcho(f) {
				continue
			}
			if r.Index == out.crashed {
				// The runtime wrote this result as the process died
				// (its watchdog, os.Exit): handled below.
				continue
			}
			f.strategy = strategy
			add(f, r.Index)
		}
	}
	for _, rep := range out.races {
		f, ok := fromRace(rep)
		if !ok {
			continue
		}
		if r, ok := byIndex[rep.Index]; ok {
			f.seed, f.decisions = r.Seed, r.Decisions
		} else if rep.Index >= 0 {
			f.seed = s.opts.Seed + int64(rep.Index)
		}
		add(f, max(rep.Index, base))
	}
	if out.crashed < 0 {
		return keys
	}
	s.mu.Lock()
	t.stats.Crashes++
	s.mu.Unlock()
	if r, ok := byIndex[out.crashed]; ok && r.Watchdog > 0 {
		if f := s.stuck(t, r, out.crashText, strategy); f != nil {
			keys[f.key()] = true
			if strategy != rt.PlainStrategy {
				s.failedAt(t, r.Index-base+1)
			}
		}
		return keys
	}
	f := crashFailure(out, byIndex)
	f.seed = s.opts.Seed + int64(out.crashed)
	f.strategy = strategy
	if out.killed && !strings.HasPrefix(f.message, "fatal error") && f.kind == checks.Fatal && strategy != rt.PlainStrategy {
		// A worker's schedule still running when the test's share ran
		// out (its unperturbed one ran to its end before): stopped by the
		// budget, inconclusive as a step bound is, not a crash.
		s.mu.Lock()
		t.stats.Crashes--
		t.stats.Stopped++
		s.mu.Unlock()
		return keys
	}
	if out.killed && !strings.HasPrefix(f.message, "fatal error") && f.kind == checks.Fatal {
		s.noteOnce(t.name+"|killed", fmt.Sprintf("%s: the schedule with seed %d did not finish before the end of its share of the budget and was stopped (a long test, or blocked outside the scheduler's control); its last output:\n%s", t.name, f.seed, tailLines(out.stdout+out.stderr, 10)))
		return keys
	}
	keys[f.key()] = true
	s.addCrash(t, f, out.crashed)
	if strategy != rt.PlainStrategy {
		s.failedAt(t, out.crashed-base+1)
	}
	return keys
}

// collectPlain collects the failures of t's unperturbed run out and
// records their keys as the unperturbed schedule's.
func (s *search) collectPlain(t *target, out *childOutcome) map[string]bool {
	keys := s.collect(t, out, plainIndex, rt.PlainStrategy)
	s.mu.Lock()
	t.plainKeys = keys
	s.mu.Unlock()
	return keys
}

// afterProcess decides how a worker goes on after one process: from which
// schedule index, or not at all.
func (s *search) afterProcess(ctx context.Context, t *target, out *childOutcome, stop time.Time) (next int, more bool) {
	last := -1
	for _, r := range out.results {
		last = max(last, r.Index)
	}
	if out.crashed >= 0 {
		return out.crashed + 1, true
	}
	if out.leftovers >= 0 {
		s.mu.Lock()
		t.stats.Fresh++
		s.mu.Unlock()
		return out.leftovers, true
	}
	if out.killed {
		tail := tailLines(out.stdout+out.stderr, 10)
		if strings.TrimSpace(tail) == "" {
			tail = "(none)"
		}
		if out.started == 0 && len(out.results) == 0 {
			// Nothing ran: TestMain or a package's initialization
			// blocked. If no other process runs anything either, the
			// search fails with this.
			s.mu.Lock()
			s.noResults = append(s.noResults, "the test process hung before its first schedule (in TestMain or a package's initialization?) and was killed; its last output:\n"+tail)
			s.mu.Unlock()
			return 0, false
		}
		s.noteOnce(t.name+"|hung", out.killedBetween(t.name, s.opts.StepTimeout, tail)) // child.go
		return 0, false
	}
	if len(out.results) == 0 {
		if time.Until(stop) > 0 && ctx.Err() == nil && out.started == 0 {
			s.mu.Lock()
			s.noResults = append(s.noResults, tailLines(out.stdout+out.stderr, 20))
			s.mu.Unlock()
		}
		return 0, false
	}
	return last + 1, true
}

// crashFailure describes the schedule a process died in: from the result
// the runtime wrote on its way out (its watchdog does), else from the
// crash output on standard error.
func crashFailure(out *childOutcome, byIndex map[int]rt.Result) *failure {
	if r, ok := byIndex[out.crashed]; ok {
		if f, ok := fromResult(r); ok {
			f.detail = out.crashText
			return f
		}
	}
	return fromCrash(out.crashText, out.exitErr, out.killed)
}

// withLog adds the test's own words to a test failure whose message says
// only that it failed: the first entry the test logged that is not a
// t.Log or t.Logf call (read from the source line the entry names, under
// dir), else the first entry.
func withLog(f *failure, logs []string, dir string) {
	if f.kind != checks.TestFailure || len(logs) == 0 {
		return
	}
	log := assertionWords(failureEntry(logs, dir))
	if strings.Contains(f.message, log) {
		return
	}
	f.message = strings.TrimSuffix(f.message, ": ") + ": " + log
}

// logCallRE matches a call of testing's Log or Logf, which logs without
// failing.
var logCallRE = regexp.MustCompile(`\.Logf?\(`)

// entrySiteRE reads the "file.go:12: " an entry starts with.
var entrySiteRE = regexp.MustCompile(`^(\S+\.go):(\d+): `)

// failureEntry picks the log entry that says why a test failed.
func failureEntry(logs []string, dir string) string {
	for _, e := range logs {
		m := entrySiteRE.FindStringSubmatch(e)
		if m == nil {
			return e
		}
		n, _ := strconv.Atoi(m[2])
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		src := sourceLine(file, n)
		if src == "" || !logCallRE.MatchString(src) {
			return e
		}
	}
	return logs[0]
}

// assertionWords shortens a testify-style entry, whose first line is only
// its site ("x_test.go:12: " then "Error Trace:", "Error:", "Messages:"
// lines), to the site and the words after Error: and Messages:.
func assertionWords(entry string) string {
	first, rest, ok := strings.Cut(entry, "\n")
	if !ok || !entrySiteRE.MatchString(first) || strings.TrimSpace(entrySiteRE.ReplaceAllString(first, "")) != "" {
		return entry
	}
	var words []string
	for _, l := range strings.Split(rest, "\n") {
		l = strings.TrimSpace(l)
		for _, label := range []string{"Error:", "Messages:"} {
			if w, ok := strings.CutPrefix(l, label); ok && strings.TrimSpace(w) != "" {
				words = append(words, strings.TrimSpace(w))
			}
		}
	}
	if len(words) == 0 {
		return entry
	}
	return strings.TrimSpace(first) + " " + strings.Join(words, ": ")
}

// relSite makes the file of a "file:line" site relative to root when it is
// inside it.
func relSite(root, site string) string {
	pos, ok := parseSite(site)
	if !ok || !filepath.IsAbs(pos.File) {
		return site
	}
	rel, err := filepath.Rel(root, pos.File)
	if err != nil || strings.HasPrefix(rel, "..") {
		return site
	}
	pos.File = filepath.ToSlash(rel)
	return pos.String()
}

// raceEcho reports whether f is the testing package's "race detected
// during execution of test" failure, which only echoes a race report that
// is a finding of its own.
func raceEcho(f *failure) bool {
	return f.kind == checks.TestFailure && strings.Contains(f.message, "race detected during execution of test")
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == '.' || r == ':' {
			return '_'
		}
		return r
	}, s)
}

// failedAt records that a worker's n-th schedule failed.
func (s *search) failedAt(t *target, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n > 0 && (t.stats.ToFirstFailure == 0 || n < t.stats.ToFirstFailure) {
		t.stats.ToFirstFailure = n
	}
}

func (s *search) note(n string) {
	s.mu.Lock()
	s.notes = append(s.notes, n)
	s.mu.Unlock()
}

// noteOnce adds a note unless one with the same key was added: every
// worker of a test tends to meet the same trouble.
func (s *search) noteOnce(key, n string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.noted == nil {
		s.noted = map[string]bool{}
	}
	if s.noted[key] {
		return
	}
	s.noted[key] = true
	s.notes = append(s.notes, n)
}

// stuck handles a schedule that the runtime's watchdog ended: a goroutine
// stuck for the whole step timeout is a finding, replayable from the
// decisions the runtime wrote on its way out, and so is one stuck at the
// site where the test's unperturbed run hung; one still stuck when the
// budget ran out, before the full timeout, is a note, and so is one blocked
// while the scheduler held back goroutines it may have been waiting for.
// It returns the failure when it recorded one.
func (s *search) stuck(t *target, r rt.Result, crashText, strategy string) *failure {
	f, ok := fromResult(r)
	if !ok {
		return nil
	}
	f.strategy = strategy
	if r.HeldBack {
		s.noteOnce(t.name+"|held|"+f.site, fmt.Sprintf("%s: not reported, the scheduler may have caused it (schedule with seed %d): %s",
			t.name, r.Seed, strings.TrimPrefix(f.message, "hang: ")))
		return nil
	}
	s.mu.Lock()
	plainHang := t.plainKeys[f.key()]
	s.mu.Unlock()
	if r.Watchdog >= s.opts.StepTimeout || plainHang {
		f.detail = crashText
		if strategy == rt.PlainStrategy {
			f.message += " (on the unperturbed schedule too: no interleaving needed)"
		}
		s.add(t, f)
		return f
	}
	s.noteOnce(t.name+"|stuck|"+f.site, fmt.Sprintf("%s: the budget ran out before the %v watchdog could call the schedule with seed %d hung: %s",
		t.name, s.opts.StepTimeout, r.Seed, strings.TrimPrefix(f.message, "hang: ")))
	return nil
}

// add records a failure, keeping the first schedule of each unique one (or
// the one with fewer decisions, which is easier to read).
func (s *search) add(t *target, f *failure) { s.record(t, f, true) }

// record is add; count says whether f is one more failing schedule (a
// crash confirmed in a fresh process was counted when it crashed).
func (s *search) record(t *target, f *failure, count bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t.stats.Failures++
	k := t.name + "|" + f.key()
	if count {
		s.countFailing(k)
	}
	matched := false
	if s.opts.Until != nil && !s.met {
		matched = s.opts.Until(makeFinding(f, t.pkg.ImportPath, t.name, ""))
		if matched {
			s.met = true
			s.untilKeys = map[string]bool{k: true}
		}
	}
	old, ok := s.failures[k]
	if !ok {
		s.failures[k] = f
		s.owners[k] = t
		s.order = append(s.order, k)
		s.stats.Findings = len(s.failures)
		return
	}
	if matched || !s.untilKeys[k] && len(f.decisions) > 0 && len(f.decisions) < len(old.decisions) {
		s.failures[k] = f
	}
}

// countFailing counts one more failing schedule of key k (s.mu held).
func (s *search) countFailing(k string) {
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[k]++
}

// isMet reports whether Options.Until accepted a failure.
func (s *search) isMet() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.met
}

// addCrash records a process death; it becomes a finding once a fresh
// process confirms it.
func (s *search) addCrash(t *target, f *failure, index int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t.stats.Failures++
	k := t.name + "|" + f.key()
	s.countFailing(k)
	if _, ok := s.failures[k]; ok {
		return
	}
	for _, pc := range s.crashes {
		if pc.t == t && pc.f.key() == f.key() {
			return
		}
	}
	s.crashes = append(s.crashes, pendingCrash{t: t, seed: f.seed, f: f, index: index})
}

// confirmCrashes confirms the pending crashes of t.
func (s *search) confirmCrashes(ctx context.Context, t *target) {
	s.mu.Lock()
	var mine, rest []pendingCrash
	for _, pc := range s.crashes {
		if pc.t == t {
			mine = append(mine, pc)
		} else {
			rest = append(rest, pc)
		}
	}
	s.crashes = rest
	s.mu.Unlock()
	for _, pc := range mine {
		if ctx.Err() != nil {
			return
		}
		s.confirmCrash(ctx, pc)
	}
}

// confirmCrash replays a crashed seed in a fresh process with the trace on,
// which records the decisions made before the crash.
func (s *search) confirmCrash(ctx context.Context, pc pendingCrash) {
	c := &child{
		bin:     pc.t.bin,
		dir:     pc.t.pkg.Dir,
		workDir: s.workDir,
		cfg: rt.Config{
			Test:        pc.t.name,
			Strategy:    pc.f.strategy,
			Seed:        pc.seed,
			First:       0,
			Schedules:   1,
			Deadline:    time.Now().Add(time.Minute),
			StepTimeout: s.opts.StepTimeout,
			Trace:       true,
		},
	}
	name := fmt.Sprintf("confirm-%s-%d", pc.t.name, pc.index)
	// Inside the budget: a crash left unconfirmed at its end is a note.
	if time.Until(s.hardStop) <= 0 {
		s.note(fmt.Sprintf("%s: the process died under seed %d (%s); the budget ran out before a fresh process could confirm it: not reported", pc.t.name, pc.seed, firstLine(pc.f.message)))
		return
	}
	hard := time.Now().Add(s.opts.StepTimeout + 2*childGrace)
	if hard.After(s.hardStop) {
		hard = s.hardStop
	}
	out, err := c.run(ctx, hard, name)
	if err != nil {
		s.note(fmt.Sprintf("%s: confirm crash of seed %d: %v", pc.t.name, pc.seed, err))
		return
	}
	if out.crashed < 0 && out.killed {
		s.note(fmt.Sprintf("%s: the process died under seed %d (%s); the budget ran out before a fresh process could confirm it: not reported", pc.t.name, pc.seed, firstLine(pc.f.message)))
		return
	}
	if out.crashed < 0 {
		s.note(fmt.Sprintf("%s: the process died under seed %d (%s) but a fresh process did not: not reported", pc.t.name, pc.seed, firstLine(pc.f.message)))
		return
	}
	byIndex := map[int]rt.Result{}
	for _, r := range out.results {
		byIndex[r.Index] = r
	}
	again := crashFailure(out, byIndex)
	if again.key() != pc.f.key() {
		s.note(fmt.Sprintf("%s: seed %d crashed differently in a fresh process (%s, then %s): not reported", pc.t.name, pc.seed, firstLine(pc.f.message), firstLine(again.message)))
		return
	}
	f := pc.f
	f.confirmed = true
	// With the trace on, the runtime records the decisions made so far;
	// the last record of the schedule is the longest.
	for _, r := range out.results {
		if len(r.Decisions) >= len(f.decisions) {
			f.decisions = r.Decisions
		}
	}
	s.record(pc.t, f, false)
}

// stage tells Options.Stage that a stage starts and returns the function
// that tells it ended.
func (s *search) stage(name string) (end func(detail string)) {
	return stageOf(s.opts.Stage, name)
}

// stageOf tells fn (if set) that the stage name starts, and returns the
// function that tells it the stage ended.
func stageOf(fn func(StageEvent), name string) (end func(detail string)) {
	if fn == nil {
		return func(string) {}
	}
	fn(StageEvent{Name: name})
	start := time.Now()
	return func(detail string) {
		fn(StageEvent{Name: name, Done: true, Took: time.Since(start), Detail: detail})
	}
}

func (s *search) startProgress() (stop func()) {
	if s.opts.Progress == nil {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(500 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s.progress()
			}
		}
	}()
	return func() { close(done); <-finished }
}

func (s *search) progress() {
	if s.opts.Progress == nil {
		return
	}
	s.mu.Lock()
	st := s.snapshot()
	s.mu.Unlock()
	s.opts.Progress(st)
}

// snapshot copies the stats; s.mu must be held.
func (s *search) snapshot() Stats {
	st := s.stats
	if !s.start.IsZero() {
		st.Elapsed = time.Since(s.start)
		if sec := st.Elapsed.Seconds(); sec > 0 {
			st.PerSecond = float64(st.Schedules) / sec
		}
	}
	st.Tests = append([]TestStats(nil), s.stats.Tests...)
	return st
}

// finding turns a unique failure into a Finding and writes its schedule
// file, shrunk when shrink is set.
func (s *search) finding(ctx context.Context, f *failure, t *target, shrink bool) (checks.Finding, error) {
	sched := &rt.Schedule{
		Version:   rt.ScheduleVersion,
		Package:   t.pkg.ImportPath,
		Dir:       t.relDir,
		Test:      t.name,
		GoVersion: s.goVersion,
		Race:      s.opts.Race,
		Strategy:  rt.StrategyOf(cmp.Or(f.strategy, s.opts.Strategy), f.seed), // plain, or the portfolio's member
		Seed:      f.seed,
		Decisions: f.decisions,
		Failure:   f.signature(),
	}
	if s.inst != nil {
		// Module-relative, so that the file replays in another checkout.
		sched.Failure.Site = relSite(s.inst.ModuleRoot, sched.Failure.Site)
	}
	if sched.Decisions == nil {
		sched.Decisions = []rt.Decision{}
	}
	told := s.tellFinding(ctx, f, t, sched, shrink)
	name := fmt.Sprintf("%s-%s-%s.json", t.name, f.kind, f.fingerprint())
	path := filepath.Join(s.opts.SchedulesDir, name)
	if err := WriteSchedule(path, sched); err != nil {
		return checks.Finding{}, err
	}
	shown := path
	if rel, err := filepath.Rel(s.opts.Dir, path); err == nil && !strings.HasPrefix(rel, "..") {
		shown = rel
	}
	fd := makeFinding(f, t.pkg.ImportPath, t.name, shown)
	fd.Interleaving = told
	if tok, err := EncodeToken(sched); err == nil {
		fd.ReplayToken = tok
	}
	return fd, nil
}

// makeFinding builds the Finding of a failure.
func makeFinding(f *failure, pkg, test, schedule string) checks.Finding {
	fd := checks.Finding{
		Rule:       checks.DynamicRuleID(f.kind),
		Severity:   checks.Error,
		Message:    fmt.Sprintf("%s: %s", test, f.message),
		Evidence:   checks.Dynamic,
		Package:    pkg,
		Kind:       f.kind,
		Test:       test,
		Goroutines: f.goroutines,
		Related:    f.related,
	}
	if pos, ok := parseSite(f.site); ok {
		fd.Pos = pos
		fd.Snippet = sourceLine(pos.File, pos.Line)
	}
	if fr, ok := firstUser(f.frames); ok {
		fd.Func = fr.Func
	}
	// The injected runtime's frames (its Go wrapper, its parking) say
	// nothing to the user: drop them from the stacks shown.
	gs := make([]checks.Goroutine, 0, len(fd.Goroutines))
	for _, g := range fd.Goroutines {
		var st []checks.Frame
		for _, fr := range g.Stack {
			if !isRTFunc(fr.Func) && !strings.Contains(filepath.ToSlash(fr.File), "/interleavert/") {
				st = append(st, fr)
			}
		}
		g.Stack = st
		gs = append(gs, g)
	}
	fd.Goroutines = gs
	if len(fd.Goroutines) == 0 && len(f.frames) > 0 {
		fd.Goroutines = []checks.Goroutine{{ID: "?", State: "running", Site: f.site, Stack: f.frames}}
	}
	if schedule != "" {
		fd.Schedule = schedule
		fd.Replay = "interleave replay " + schedule
	}
	sort.SliceStable(fd.Related, func(i, j int) bool { return fd.Related[i].Line < fd.Related[j].Line })
	return fd
}
