// Package explore drives interleave's controlled-concurrency search: it
// instruments the packages under test once, builds one test binary per
// package, runs many schedules of each test in worker processes within a hard
// time budget, collects failures from the schedules' results and from the race
// detector's reports, dedupes them, writes a replayable schedule file for each
// and turns them into Findings. Replay re-runs one schedule file in a fresh
// process and says whether the failure happened again.
//
// The files, in the order of a run:
//
//   - explore.go: Run and search.explore, read as their steps; the state of
//     a search (search, target).
//   - options.go: Options and their defaults, Stats, Result, the errors.
//   - build.go: instrumenting the packages, selecting the tests, building
//     the test binaries.
//   - budget.go: splitting the budget among the tests and what follows the
//     search.
//   - unperturbed.go: each test's unperturbed schedule, run first.
//   - aim.go: the Targets each unperturbed run executed; those tests
//     searched first; preemptions at the targets counted.
//   - subtests.go: with Targets, a top-level subtest that starts
//     goroutines after its siblings ran is searched alone too.
//   - batch.go: the unperturbed schedules of many tests in one process.
//   - workers.go: the search of each test by worker processes; child.go
//     runs one process and reads its output; batchsearch.go: the tests
//     whose share cannot pay a process, in batches.
//   - failure.go: building a failure, its one owner: from a process's output
//     (collect) to the Finding (finding, makeFinding); stack.go tells the
//     user's frames and reads race reports.
//   - record.go: the failures kept, deduped; crashes confirmed.
//   - plaingo.go, plainbin.go, plaincheck.go: what plain go test does with
//     a test.
//   - report.go: after the search: one finding per cause (group.go), each
//     replayed alone, labelled, shrunk (shrink.go) and told (story.go).
//   - notes.go: notes, stages and progress.
//   - schedule.go, replay.go, replaymany.go: schedule files and replaying
//     them; base.go: what a change's base commit does with its findings.
//   - shared.go: a Build, one instrumentation and one set of test binaries
//     that several Runs and replays share (Options.Build).
package explore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

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
	// failedRun: a schedule of its search failed (counted), so a process
	// starts only while the failure's replays still fit (rt.ReplayFits).
	failedRun bool
	// alone: its schedules in parallel processes took the same address
	// (a server on a fixed port): one worker searches it from then on
	// (sameAddress).
	alone bool
	// onePerProcess: a process's schedules after its first all failed
	// one way its first did not (rt.MarkerRerun): each process runs one
	// schedule from then on, while no such fresh schedule fails that way
	// (rerunKey). rerunFresh counts the fresh ones that did not;
	// rerunRefuted is set when one did: a failure that frequent is the
	// test's on any run, and the test is searched as before.
	onePerProcess bool
	// passedAfter and passedFirst count its passing schedules that ran
	// after other tests in their (batch) process and those that did not;
	// failedFirst counts, by failure key, the failing ones that did not
	// (failedWithoutOthers): a failure only schedules without the tests
	// before them have is the order's, not the schedule's.
	passedAfter, passedFirst int
	failedFirst              map[string]int
	rerunKey                 string // rt.RerunKey of the rerun's failure
	rerunMsg                 string // its message's first line, for the note
	rerunFresh               int
	rerunRefuted             bool
	// maxSteps is the step bound of its schedules after the unperturbed
	// one (searchBound), set from that one's steps (0 until then).
	maxSteps int
	// replayStop is set once its processes still running were told to
	// start no further schedule for a failure's replays (keepReplayTime).
	replayStop bool
	// virtual is how far the virtual clock of its unperturbed schedule
	// moved: its sleeps and timers, which cost no wall time under
	// control but do under plain go test (plainCost).
	virtual time.Duration
	// plainKeys are the keys of the unperturbed run's failures.
	plainKeys map[string]bool
	// plainGo is what plain go test did with the test, run when its
	// unperturbed schedule failed (nil when it was not run), and
	// plainSame the keys of the failures it had too.
	plainGo   *plainOutcome
	plainSame map[string]bool
	// plainCheck, once checkPlain started beside the search, is closed
	// when it has set plainGo.
	plainCheck chan struct{}
	// leftGo is plain go test's run for the leaks of later schedules that
	// left goroutines running (checkLeftRunning), when plainGo was not run.
	leftGo *plainOutcome
	// labelGo is plain go test's run after the search, for the labels of
	// its findings, when neither of those ran.
	labelGo *plainOutcome
	// rerun is set once rerunNoChoice ran it.
	rerun bool
	// plainStopped is set while the unperturbed run has not finished
	// (stopped at its share, or not run yet): the test is not searched.
	plainStopped bool
	stopReason   string
	// stuckAtStop is set when the unperturbed run was stopped with a
	// goroutine stuck (a hang, perhaps), not while it made progress.
	stuckAtStop bool
	slot        time.Duration // of its last unperturbed run
	ran         time.Duration // the wall time of its last run, when stopped
	retried     bool          // its unperturbed run ran again with more time
	lastStop    *childOutcome // its last unperturbed run, when stopped
	mostSlot    time.Duration // the longest slot its unperturbed run had
	ranNothing  bool          // its binary exited without running a schedule
	// boundFirst is its unperturbed run when that stopped at
	// PlainMaxSteps (the steps its test needs are more): a longer one
	// runs when the rounds have time (longer.go). longerBound is the
	// bound of the one about to run, longerRuns how many ran.
	boundFirst  *rt.Result
	longerBound int
	longerRuns  int
	// subtests is its unperturbed run's top-level subtests (subtests.go).
	subtests []rt.SubtestRun
	// aimSites are the Options.Targets its unperturbed run executed
	// (aim.go).
	aimSites []string
	// aloneProbe is set while the unperturbed run of a subtest searched
	// alone runs; aloneFailed is the kind of failure other than a race it
	// had then (it needs what its siblings do first: not searched).
	aloneProbe  bool
	aloneFailed checks.FailureKind
	// refused is set once Options.TestUntil did not accept a failure of
	// its search: its next processes run on past their failing schedules
	// (a test failing that way on most schedules would cost a process
	// each).
	refused bool
	// seekPass: decideAwaiting searches it for a schedule that passes;
	// its processes stop at their first pass, and no other starts after.
	seekPass bool
	// untold is the latest failure of its search Options.TestUntil was
	// not asked about (told): while it waits (pending), its next
	// processes run on past their failing schedules and stop at their
	// first pass, which tells it; then they stop at a failure again.
	untold *failure
}

// search is the state of one Run.
type search struct {
	opts      Options
	inst      *rewrite.Result
	workDir   string
	goVersion string
	// runFilter is Options.Run when it selects among subtests (subRun,
	// rt.Config.Run and the schedules' Run), else nil.
	runFilter *rt.RunFilter
	subRun    string
	// skipFilter is Options.Skip when it has elements for subtests
	// (subSkip, rt.Config.Skip and the schedules' Skip), else nil.
	skipFilter *rt.RunFilter
	subSkip    string
	skip       *rt.RunFilter // Options.Skip read, nil when empty

	mu        sync.Mutex
	stats     Stats
	start     time.Time
	failures  map[string]*failure // by key
	counts    map[string]int      // failing schedules, by key
	masked    map[string]int      // schedules that could not fail so (maskRepeats), by key
	order     []string
	owners    map[string]*target
	crashes   []pendingCrash
	notes     []string
	noted     map[string]bool      // keys of noteOnce
	targetAt  map[string]int       // index in stats.Targets by site (aim.go)
	noResults []noResult           // workers whose process ran nothing
	plainBins map[string]*plainBin // by import path: the packages' plain go test binaries
	deadline  time.Time            // end of the search: the budget less overrunSlack
	hardStop  time.Time            // end of the budget: no process outlives it
	// firstRun holds, by key, the first failure of each that was the
	// first schedule of its process (unreplayed reports it when no time
	// is left to replay the one kept).
	firstRun map[string]*failure
	// replayUntil, when set, ends the replays of the cause being checked
	// (its fair part of the replays' time).
	replayUntil time.Time
	// replayKeep is what the first replays of the causes after the one
	// being checked take: its tries after the first (a rate, once one
	// reproduced it) run only when that still fits before the hard stop.
	replayKeep time.Duration
	// tellAfter is what telling the failures took at the start of the
	// report (candidates): after the replays, shrinkFindings and
	// unreplayed tell them again, and stopBy keeps that time.
	tellAfter time.Duration
	// keptAfter is what the caller keeps after the search for the
	// failures the report tells (callerKeep, at the report's start):
	// optionalBy leaves it.
	keptAfter time.Duration
	// noReplayCheck skips replaysAlone (a fake test binary that does
	// not replay schedules).
	noReplayCheck bool
	// fresh keeps what the latest test processes took outside their
	// schedules (replaysAlone's time follows it).
	fresh freshCosts
	// shrinkUntil ends the shrinking of failing schedules (shrink.go);
	// shrinkShare, when set, that of the one being shrunk, its fair part
	// of what is left (shrinkFindings).
	shrinkUntil, shrinkShare time.Time
	// met is set once Options.Until returned true, and untilKeys holds the
	// key of the failure it accepted.
	met       bool
	untilKeys map[string]bool
	// batchNext is the next schedule index of batched searches, from
	// batchIndexBase (batchsearch.go).
	batchNext int
	// reported holds the keys of the failures a report went through already:
	// their replays are done, no reserve is kept for them (returned.go).
	reported map[string]bool
	// pass counts the searches after the first (returned.go); a worker's
	// schedule indexes move by passStride each.
	pass int
	// plainChecks counts the checkPlain runs still going beside the search.
	plainChecks sync.WaitGroup
}

// somePassed reports whether a schedule of t ran to the end without failing.
func (t *target) somePassed() bool {
	return t.stats.Schedules > t.stats.Failures+t.stats.Crashes
}

// Run searches schedules of the selected tests for opts.Budget and returns
// the unique failures as findings. It reads as its steps: the options
// checked, the packages instrumented, the tests selected and built, then
// the search of the built tests (explore).
func Run(ctx context.Context, opts Options) (*Result, error) {
	s, run, err := newSearch(opts)
	if err != nil {
		return nil, err
	}
	if opts.Build != nil {
		if s.inst, err = opts.Build.view(ctx, s.opts); err != nil {
			return nil, err
		}
	} else {
		if err := s.load(ctx); err != nil {
			return nil, err
		}
		defer s.inst.Cleanup()
	}
	if err := s.makeWorkDir(ctx); err != nil {
		return nil, err
	}
	defer os.RemoveAll(s.workDir)
	targets, err := s.selectTests(run)
	if err != nil {
		var nt *NoTestsError
		if errors.As(err, &nt) && s.inst != nil && len(s.inst.LeftOut) > 0 {
			// The test asked for may be in a package left out.
			var left []string
			for _, l := range s.inst.LeftOut {
				left = append(left, firstLine(l))
			}
			nt.What += "; left out: " + strings.Join(left, "; ")
		}
		return nil, err
	}
	if s.inst != nil {
		for _, l := range s.inst.LeftOut {
			s.note(l)
		}
	}
	s.noteUncontrolled(targets)
	built, err := s.buildTargets(ctx, targets)
	if len(built) == 0 {
		return nil, err
	}
	return s.explore(ctx, built)
}

// parseFilter reads pattern as go test's flag reads it (nil when empty).
func parseFilter(flag, pattern string) (*rt.RunFilter, error) {
	if pattern == "" {
		return nil, nil
	}
	f, err := rt.ParseRun(pattern)
	if err != nil {
		return nil, fmt.Errorf("bad %s pattern: %w", flag, err)
	}
	return f, nil
}

// newSearch checks and completes the options (normalize), compiles the
// -run pattern, and starts the state of the search.
func newSearch(opts Options) (*search, *rt.RunFilter, error) {
	if err := normalize(&opts); err != nil {
		return nil, nil, err
	}
	run, err := parseFilter("-run", opts.Run)
	if err != nil {
		return nil, nil, err
	}
	skip, err := parseFilter("-skip", opts.Skip)
	if err != nil {
		return nil, nil, err
	}
	s := &search{opts: opts, failures: map[string]*failure{}, counts: map[string]int{}, owners: map[string]*target{}, plainBins: map[string]*plainBin{}}
	if run != nil && run.Subtests() {
		s.runFilter, s.subRun = run, opts.Run
	}
	if skip != nil {
		s.skip = skip
		if skip.Subtests() {
			s.skipFilter, s.subSkip = skip, opts.Skip
		}
	}
	s.stats.Budget = opts.Budget
	s.stats.Building = true
	s.startTargets()
	s.progress()
	return s, run, nil
}

// explore searches the built targets for the budget and collects findings:
// the unperturbed schedules first (unperturbed.go), then each test's
// search (workers.go), then the report of what they found (report.go).
func (s *search) explore(ctx context.Context, targets []*target) (*Result, error) {
	s.startClock(targets)
	stopProgress := s.startProgress()
	// One deadline, computed once after the build: every stage below
	// takes from what is left of it.
	s.deadline, s.hardStop = budgetEnds(s.start, s.opts.Budget)
	// First every test's unperturbed schedule, each in a fresh process:
	// its wall time is the test's measured cost, and plain go test decides
	// which of its failures fail without interleave too.
	s.plainRuns(ctx, targets)
	targets = s.searchSubtestsAlone(ctx, targets)
	if s.opts.Until != nil || s.opts.TestUntil != nil {
		for _, t := range targets {
			s.confirmCrashes(ctx, t)
		}
	}
	s.searchTests(ctx, targets)
	// Crashes of the unperturbed runs of tests not searched after them.
	for _, t := range targets {
		s.confirmCrashes(ctx, t)
	}
	s.noteStopped(targets)
	s.noteOnePerProcess(targets)
	s.plainChecks.Wait()
	if err := s.searchErr(ctx); err != nil {
		stopProgress()
		return nil, err
	}
	if s.opts.afterSearch != nil {
		s.opts.afterSearch(s)
	}
	res, err := s.report(ctx)
	if err != nil {
		stopProgress()
		return nil, err
	}
	res, err = s.searchReturned(ctx, targets, res)
	stopProgress()
	return res, err
}

// startClock starts the search's stats, one entry per target, and its
// clock (the build is over).
func (s *search) startClock(targets []*target) {
	s.mu.Lock()
	// Room for the subtests searched alone (subtests.go).
	s.stats.Tests = make([]TestStats, 0, len(targets)+maxAlone)
	for _, t := range targets {
		s.stats.Tests = append(s.stats.Tests, TestStats{Package: t.pkg.ImportPath, Test: t.name})
	}
	for i, t := range targets {
		t.stats = &s.stats.Tests[i]
	}
	s.start = time.Now()
	s.stats.Building = false
	s.mu.Unlock()
}

// ErrNoScheduleInBudget: the search ran no schedule because its budget
// ended before the test processes started their first, none seen
// hanging (a slow start on a loaded machine): a larger budget gives them
// time.
var ErrNoScheduleInBudget = errors.New("the instrumented test binary ran no schedules before the end of the budget")

// NoScheduleLine is err in one line when it is ErrNoScheduleInBudget: why,
// and the first stopped process's note without its output; ok is false
// for any other err.
func NoScheduleLine(err error) (line string, ok bool) {
	if !errors.Is(err, ErrNoScheduleInBudget) {
		return "", false
	}
	why, detail, _ := strings.Cut(err.Error(), "\n")
	detail, _, _ = strings.Cut(detail, "\n")
	detail, _, _ = strings.Cut(detail, "; its last output:")
	return strings.TrimSuffix(why, ":") + ": " + detail, true
}

// searchErr is why the search has nothing to report: its context ended,
// or the test binaries ran no schedule at all.
func (s *search) searchErr(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	noResults := s.noResults
	s.mu.Unlock()
	if len(noResults) == 0 || s.stats.Schedules > 0 || len(s.failures) > 0 {
		return nil
	}
	for _, r := range noResults {
		if !r.budgetStop {
			return fmt.Errorf("the instrumented test binary ran no schedules:\n%s", r.text)
		}
	}
	return fmt.Errorf("%w:\n%s", ErrNoScheduleInBudget, noResults[0].text)
}

// noResult is why a process ran nothing (its note); budgetStop says the
// end of its share of the budget stopped it before its first schedule,
// not seen hanging.
type noResult struct {
	text       string
	budgetStop bool
}
