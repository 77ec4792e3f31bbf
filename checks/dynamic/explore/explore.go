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
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
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
