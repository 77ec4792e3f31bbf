// The search of the tests: each test in turn, its worker processes run one after another, and how each goes on after the last.

package explore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// searchTests searches the tests whose unperturbed run finished: those
// whose share cannot pay aloneProcesses processes of their own in batches
// first (batchsearch.go), then
// the others one after another, each with every worker; a test's slice is its
// share of what is left, half by weight alone and half by weight times
// measured cost, when that is enough for one process of one schedule
// (else nothing: its unperturbed schedule ran); time one test does not
// use goes to the others. With Options.Targets, the tests whose
// unperturbed run executed a target go first, with more weight (aim.go).
func (s *search) searchTests(ctx context.Context, targets []*target) {
	var searched, none []*target
	var names []string
	for _, t := range targets {
		switch {
		case t.plainStopped:
		case t.stats.NoChoice:
			if !t.rerun {
				t.rerun = true
				none = append(none, t)
				names = append(names, t.name)
			}
		default:
			searched = append(searched, t)
		}
	}
	if len(none) > 0 {
		s.rerunNoChoice(ctx, none, names)
	}
	if len(s.opts.Targets) > 0 {
		searched = aimFirst(searched)
	}
	// The tests whose share cannot pay a process of their own are searched
	// first, in batches, for the sum of their shares (batchsearch.go); not
	// while Until or TestUntil wants each failure as it happens, nor under
	// a count. Aimed at targets, the tests with processes of their own
	// (the most weight) go first and the batches get what they leave:
	// after the batches, ttlcache v3.4.0's Test_Cache_set, aimed most, got
	// a slice of 0 s (a failure's shrinking took what was left).
	var batched []*target
	if s.opts.Until == nil && s.opts.TestUntil == nil && s.opts.Schedules == 0 {
		var alone []*target
		var part time.Duration
		batched, alone, part = splitBatched(time.Until(s.deadline)-s.shrinkReserve(), searched)
		if len(batched) > 0 {
			if len(s.opts.Targets) == 0 {
				s.searchBatches(ctx, batched, time.Now().Add(part))
				s.decideAwaiting(ctx, batched)
				batched = nil
			}
			searched = alone
		}
	}
	s.searchAlone(ctx, searched, batched)
	if len(batched) > 0 {
		s.searchBatches(ctx, batched, s.deadline)
	}
}

// searchAlone searches each of searched with every worker, one after
// another, each its slice of what is left, the part of later, the tests
// to search in batches after them, kept.
func (s *search) searchAlone(ctx context.Context, searched, later []*target) {
	all, allCosts := budgetShares(append(slices.Clone(searched), later...))
	shares, costs := slices.Clone(all[:len(searched)]), allCosts[:len(searched)]
	if len(later) > 0 {
		var part float64
		for _, x := range all[len(searched):] {
			part += x
		}
		shares, costs = append(shares, part), append(slices.Clone(costs), 0)
	}
	for i, t := range searched {
		if ctx.Err() != nil || time.Until(s.deadline) <= 0 || s.isMet() {
			break
		}
		if s.opts.SkipTest != nil && s.opts.SkipTest(TestRef{Package: t.pkg.ImportPath, Name: t.name}) {
			continue
		}
		slice := testSlice(time.Until(s.deadline), s.shrinkReserve(), s.searchReserve(t), shares[i:], costs[i:])
		s.searchOne(ctx, t, slice, fmt.Sprintf("searching %s.%s (%d/%d) for %v", t.pkg.ImportPath, t.name, i+1, len(searched), slice.Round(100*time.Millisecond)), true)
	}
}

// searchOne searches t with every worker for slice, in a stage named
// what. A crash is confirmed in a fresh process right away, inside the
// budget, and so, with checkLeft, is whether plain go test leaves
// running what some schedule did.
func (s *search) searchOne(ctx context.Context, t *target, slice time.Duration, what string, checkLeft bool) {
	s.mu.Lock()
	s.stats.Current = t.pkg.ImportPath + "." + t.name
	s.mu.Unlock()
	endStage := s.stage(what)
	began := time.Now()
	s.searchTest(ctx, t, began.Add(slice))
	s.confirmCrashes(ctx, t)
	if checkLeft {
		s.checkLeftRunning(ctx, t, s.deadline)
	}
	s.mu.Lock()
	t.stats.Elapsed += time.Since(began)
	detail := fmt.Sprintf("%d schedules, %d failing", t.stats.Schedules, t.stats.Failures)
	s.mu.Unlock()
	endStage(detail)
}

// rerunNoChoice runs each of the tests whose unperturbed run had no choice
// twice in one process, no more: every schedule of such a test is the
// unperturbed one, but a run after a run in one process sees what the
// first left (a handler registered twice, a pool rebooted: go test
// -count=2 fails so too). In batches, or with Until, TestUntil or a count
// of schedules one process each.
func (s *search) rerunNoChoice(ctx context.Context, none []*target, names []string) {
	// Stage, not note: -v and the JSON stats tell it (TestStats.NoChoice).
	end := s.stage(fmt.Sprintf("%d %s had no choice in the unperturbed run (one goroutine throughout; no select, timer, map order or random draw), twice in one process is all of them: %s",
		len(none), checks.Plural(len(none), "test"), strings.Join(names[:min(len(names), 8)], ", ")))
	if s.opts.Until == nil && s.opts.TestUntil == nil && s.opts.Schedules == 0 {
		until := func() time.Time { return s.deadline.Add(-s.searchReserve(none...)) }
		s.runBatches(ctx, batchesOf(none, s.opts.Workers, 1), until, func(b []*target, k int) []*target {
			return s.searchBatch(ctx, b, k, noChoiceRuns, until())
		})
	} else {
		for _, t := range none {
			if ctx.Err() != nil || time.Until(s.deadline) <= 0 || s.isMet() {
				break
			}
			s.worker(ctx, t, 0, s.deadline)
		}
	}
	for _, t := range none {
		s.confirmCrashes(ctx, t)
	}
	end("not searched further")
}

// noChoiceRuns is how many schedules rerunNoChoice runs of a test.
const noChoiceRuns = 2

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

// worker runs one process after another until stop: a process that dies,
// or stops because of leftovers, is replaced, starting with the schedule
// after the last one it ran.
func (s *search) worker(ctx context.Context, t *target, k int, stop time.Time) {
	first := k*workerStride + s.pass*passStride
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
	// Options.TestUntil's stop, or a failure's replays' (keepReplayTime).
	stopFile := s.workerStopFile(t, k)
	for run := 0; ctx.Err() == nil && time.Until(last) > 0 && !s.isMet() && !s.testMet(t); run++ {
		s.mu.Lock()
		if k > 0 && t.alone || t.seekPass && t.somePassed() {
			s.mu.Unlock()
			return
		}
		pending := s.opts.Until == nil && (s.opts.TestUntil != nil && s.pending(t) || t.seekPass)
		stopOnFail := s.opts.Until != nil || s.opts.TestUntil != nil && !t.refused && !pending
		failed, step := t.failedRun, t.step
		s.mu.Unlock()
		replayBy := s.replayBy()
		if failed && !rt.ReplayFits(replayBy, replayTries, step, time.Now()) {
			// A process that ran a failing schedule stopped so (a leak
			// leaves goroutines behind: the next schedule needs a fresh
			// process); no other starts in the failure's replay time.
			return
		}
		bound := s.opts.Schedules
		if t.stats.NoChoice {
			bound = noChoiceRuns // rerunNoChoice's
		}
		left, more := schedulesLeft(bound, first-k*workerStride-s.pass*passStride)
		if !more {
			return
		}
		s.mu.Lock()
		evidence := rerunEvidence
		if t.onePerProcess {
			left, evidence = 1, 0
		} else if t.rerunRefuted {
			evidence = 0
		}
		s.mu.Unlock()
		procFirst := first
		c := s.testChild(t, rt.Config{
			Strategy:    s.opts.Strategy,
			First:       first,
			Schedules:   left,
			Deadline:    last,
			Until:       stop,
			ReplayBy:    replayBy,
			ReplayTries: replayTries,
			MaxSteps:    s.searchBound(t),
			StopOnFail:  stopOnFail,
			StopOnPass:  pending,
			StopFile:    stopFile,
			// A test that cannot run twice in one process.
			RerunEvidence: evidence,
		}, func(r rt.Result) {
			s.counted(t, r)
			if r.Index == procFirst {
				s.rerunFirst(t, r)
			}
		})
		name := fmt.Sprintf("%s-%s-w%d-r%d", sanitize(t.pkg.ImportPath), t.name, k, run)
		out, err := c.run(ctx, hard, name)
		if err != nil {
			s.note(fmt.Sprintf("%s: %v", t.name, err))
			return
		}
		s.collect(t, out, k*workerStride+s.pass*passStride, s.opts.Strategy)
		if s.opts.Until != nil || s.opts.TestUntil != nil {
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

// rerunEvidence is how many schedules in a row after a process's first
// must fail one way the first did not before its test is searched one
// schedule per process.
const rerunEvidence = 3

// onePerProcess makes t's processes run one schedule each from now on,
// after a process of it stopped on rt.MarkerRerun; last is that
// process's last schedule, whose failure the ones before it shared.
func (s *search) onePerProcess(t *target, last rt.Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.onePerProcess || t.rerunRefuted {
		return
	}
	t.onePerProcess, t.rerunKey, t.rerunMsg, t.rerunFresh = true, rt.RerunKey(last), firstLine(last.Message), 0
}

// rerunFirst takes the first schedule of a process of t while t is
// searched one schedule per process: one failing as the rerun did
// refutes it (the failure is that frequent on a first run: t is searched
// as before); each other one is evidence for it (rerunFresh).
func (s *search) rerunFirst(t *target, r rt.Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !t.onePerProcess {
		return
	}
	if rt.RerunKey(r) == t.rerunKey {
		t.onePerProcess, t.rerunRefuted = false, true
		return
	}
	t.rerunFresh++
}

// noteOnePerProcess tells, once the search is over, the tests searched
// one schedule per process to the end with rerunEvidence fresh first
// runs that did not fail as their reruns had: a switch a later fresh run
// took back (rerunFirst) is not told, nor one with too few fresh runs to
// say the failure needs an earlier run.
func (s *search) noteOnePerProcess(targets []*target) {
	for _, t := range targets {
		s.mu.Lock()
		told := t.onePerProcess && t.rerunFresh >= rerunEvidence
		msg, fresh := t.rerunMsg, t.rerunFresh
		if told {
			t.stats.OnePerProcess = true
		}
		s.mu.Unlock()
		if !told {
			continue
		}
		s.note(fmt.Sprintf("%s: searched one schedule per process from then on: in one process the %d schedules after its first failed the same way (%s) and the first did not, and none of the %d schedules run first in a fresh process after that did: a test that cannot run twice in one process (state it leaves in the process, as go test -count=2 shows)", t.name, rerunEvidence, msg, fresh))
	}
}

// testChild is a process of t's test binary running cfg, to which it adds
// what every process of the search shares: the test, the seed, the
// watchdog, the clock's options, the subtests run or skipped and the
// targets (counted, aimed at by the strategies that aim). onResult, when
// set, sees each schedule's result as it ends.
func (s *search) testChild(t *target, cfg rt.Config, onResult func(rt.Result)) *child {
	cfg.Test, cfg.Seed, cfg.StepTimeout = t.name, s.opts.Seed, s.opts.StepTimeout
	cfg.KeepEarly, cfg.EarlySleep, cfg.Runs = s.opts.KeepEarly != nil, s.opts.EarlySleep, s.opts.Runs
	cfg.TestTimeout, cfg.Run, cfg.Skip, cfg.Targets = s.opts.TestTimeout, s.subRun, s.subSkip, s.opts.Targets
	return &child{bin: t.bin, dir: t.pkg.Dir, workDir: s.workDir, onStart: s.processStarted, fresh: &s.fresh, cfg: cfg, onResult: onResult}
}

// processStarted counts a test process started.
func (s *search) processStarted() {
	s.mu.Lock()
	s.stats.Processes++
	s.mu.Unlock()
}

// counted records a finished schedule; the longest one so far is what a
// worker keeps free at the end of the test's slice.
func (s *search) counted(t *target, r rt.Result) {
	s.mu.Lock()
	s.stats.Schedules++
	t.stats.Schedules++
	if r.Kept > 0 {
		t.stats.Kept++
	}
	if r.Inconclusive != "" && r.Outcome == "pass" {
		t.stats.Inconclusive++
	}
	if strings.HasPrefix(r.Inconclusive, rt.StepBoundPrefix) {
		t.stats.StepBound++
	} else {
		t.stats.MostSteps = max(t.stats.MostSteps, r.Steps)
	}
	t.step = max(t.step, r.Elapsed)
	t.failedRun = t.failedRun || r.Outcome != "pass"
	newlyAlone := !t.alone && s.opts.Workers > 1 && sameAddress(r)
	t.alone = t.alone || newlyAlone
	if newlyAlone {
		// The other workers' processes start no further schedule.
		s.stopWorkers(t, 1)
	}
	s.keepReplayTime(t)
	s.countPreempts(r)
	s.mu.Unlock()
	if u := r.Unordered; u != nil {
		s.noteOnce(t.name+"|unordered|"+u.Site, unorderedNote(t.name, u))
	}
	if newlyAlone {
		s.note(fmt.Sprintf("%s: searched by one worker process from then on: a schedule failed with %q while %d workers ran it at once (a fixed address, as a server's port, is the process's; go test runs one test at a time)", t.name, addrInUse, s.opts.Workers))
	}
}

// addrInUse is the system's message for a bind to an address in use.
const addrInUse = "address already in use"

// sameAddress: did r fail binding an address another process holds (the
// same test's schedule in a parallel worker), whether its message says so
// or the program dropped the listen's error (rt.Listen)?
func sameAddress(r rt.Result) bool {
	return r.Outcome != "pass" && (strings.Contains(r.Message, addrInUse) || r.AddrInUse != "")
}

// unorderedNote tells a range over a map whose keys hold pointers that
// no rewritten code stored (rt.Result.Unordered): it ran in the runtime's
// order, which a replay cannot follow.
func unorderedNote(test string, u *rt.UnorderedRange) string {
	at := "a range over a map"
	if u.Site != "" {
		at += " at " + u.Site
	}
	return fmt.Sprintf("%s: %s met %d keys holding pointers or channels that no rewritten code stored (a map filled by a dependency, most likely): it ran in the runtime's random order, not one the schedule fixes; a failure that needs one order of it may not replay",
		test, at, u.Keys)
}

// keepReplayTime, at each schedule of t that ended after one of them
// failed: once the failure's replays (rt.ReplayFits, as its own process
// judges them) no longer fit before the end of the budget, t's processes
// still running start no further schedule (its stop file). Before, they
// ran to the end of the test's slice, planned before the failure, and
// the replay found no time left. The caller holds s.mu.
func (s *search) keepReplayTime(t *target) {
	if !t.failedRun || t.replayStop || s.workDir == "" || rt.ReplayFits(s.replayBy(), replayTries, t.step, clock()) {
		return
	}
	t.replayStop = true
	s.stopWorkers(t, 0)
}

// clock is time.Now; tests replace it.
var clock = time.Now

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
	if out.rerun >= 0 && len(out.results) > 0 {
		s.onePerProcess(t, out.results[len(out.results)-1])
		return out.rerun, true
	}
	if out.killed {
		tail := tailLines(out.stdout+out.stderr, 10)
		if strings.TrimSpace(tail) == "" {
			tail = "(none)"
		}
		if out.started == 0 && len(out.results) == 0 {
			// Nothing ran: TestMain or a package's initialization
			// blocked, or the process had not got that far when its
			// share of the budget ended (a slow start on a loaded
			// machine). If no other process runs anything either, the
			// search fails with this.
			s.mu.Lock()
			s.noResults = append(s.noResults, noResult{out.killedBeforeStart(s.opts.StepTimeout, tail), out.quiet < s.opts.StepTimeout})
			s.mu.Unlock()
			return 0, false
		}
		s.noteOnce(t.name+"|hung", out.killedBetween(t.name, s.opts.StepTimeout, tail)) // child.go
		return 0, false
	}
	if len(out.results) == 0 {
		if time.Until(stop) > 0 && ctx.Err() == nil && out.started == 0 {
			s.mu.Lock()
			s.noResults = append(s.noResults, noResult{text: tailLines(out.stdout+out.stderr, 20)})
			s.mu.Unlock()
		}
		return 0, false
	}
	return last + 1, true
}

// failedAt records that a worker's n-th schedule failed.
func (s *search) failedAt(t *target, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n > 0 && (t.stats.ToFirstFailure == 0 || n < t.stats.ToFirstFailure) {
		t.stats.ToFirstFailure = n
	}
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == '.' || r == ':' {
			return '_'
		}
		return r
	}, s)
}
