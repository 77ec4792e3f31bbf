// The failures found so far: deduped by key, counted, and crashes waiting for a fresh process to confirm them.

package explore

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

type pendingCrash struct {
	t     *target
	seed  int64
	f     *failure
	index int
}

// add records a failure, keeping the first schedule of each unique one (or
// the one with fewer decisions, which is easier to read).
func (s *search) add(t *target, f *failure) { s.record(t, f, true) }

// record is add; count says whether f is one more failing schedule (a
// crash confirmed in a fresh process was counted when it crashed).
func (s *search) record(t *target, f *failure, count bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.aloneFails(t, f) {
		return
	}
	t.stats.Failures++
	k := t.name + "|" + f.key()
	if count {
		s.countFailing(k)
	}
	if s.opts.TestUntil != nil && !t.stats.Met && f.strategy != rt.PlainStrategy {
		switch {
		case !s.told(t, f):
			t.untold = f
		case s.opts.TestUntil(makeFinding(f, t.pkg.ImportPath, t.name, "")):
			t.stats.Met = true
			// The test's processes still running start no further schedule.
			s.stopWorkers(t, 0)
		default:
			t.refused = true
		}
	}
	matched := false
	if s.opts.Until != nil && !s.met {
		matched = s.opts.Until(makeFinding(f, t.pkg.ImportPath, t.name, ""))
		if matched {
			s.met = true
			s.untilKeys = map[string]bool{k: true}
		}
	}
	if f.firstInProcess() && s.firstRun[k] == nil {
		if s.firstRun == nil {
			s.firstRun = map[string]*failure{}
		}
		s.firstRun[k] = f
	}
	old, ok := s.failures[k]
	if !ok {
		s.failures[k] = f
		s.owners[k] = t
		s.order = append(s.order, k)
		s.stats.Findings = len(s.failures)
		return
	}
	if matched || !s.untilKeys[k] && len(f.decisions) > 0 && keepInstead(f, old) {
		s.failures[k] = f
	}
}

// firstInProcess reports whether f was the first schedule its process
// ran, beside no leftovers: nothing an earlier schedule did is in it.
func (f *failure) firstInProcess() bool { return len(f.prior) == 0 && !f.kept }

// unperturbed: f failed on its test's unperturbed schedule.
func (f *failure) unperturbed() bool { return f.strategy == rt.PlainStrategy }

// maskRepeats leaves out of a race's frequency the schedules of t that
// out's process ran after the race's first report there (raced: failure
// key to schedule index): the race detector reports a race once per
// process (equal stacks and addresses are suppressed), so they could not
// fail that way. A race on every schedule was told "on 3 of 36382
// schedules (schedule-dependent)", one report per process.
func (s *search) maskRepeats(t *target, raced map[string]int, out *childOutcome) {
	if len(raced) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.masked == nil {
		s.masked = map[string]int{}
	}
	for k, index := range raced {
		for _, r := range out.results {
			if r.Index > index {
				s.masked[t.name+"|"+k]++
			}
		}
	}
}

// passed counts r, a schedule of t, if it passed (one the step bound
// stopped did not), after other tests in its process or not.
func (s *search) passed(t *target, r rt.Result, afterOthers bool) {
	if r.Outcome != "pass" || r.Inconclusive != "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if afterOthers {
		t.passedAfter++
	} else {
		t.passedFirst++
	}
}

// failedWithoutOthers counts a schedule of t that failed as key k with
// no other test before it in its process.
func (s *search) failedWithoutOthers(t *target, k string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.failedFirst == nil {
		t.failedFirst = map[string]int{}
	}
	t.failedFirst[k]++
}

// passedOnlyAfterOthers: did t pass only after other tests ran in its
// process, and fail as key k at least once without them (groupcache's
// TestTruncatingByteSliceTarget, whose group only earlier tests' setup
// makes; its failures after byteview's tests, which make none, count
// too)? labelPlain keeps the label only when plain go test, the test
// alone, fails on every run. The caller holds s.mu.
func passedOnlyAfterOthers(t *target, k string) bool {
	return t.passedAfter > 0 && t.passedFirst == 0 && t.failedFirst[k] > 0
}

// countFailing counts one more failing schedule of key k (s.mu held).
func (s *search) countFailing(k string) {
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[k]++
}

// told reports whether f, a failure of t's search, will be told as a
// finding whatever plain go test does (s.mu held): one the unperturbed
// schedule did not have, or has once some schedule passed (it depends on
// the interleaving) or plain go test failed the same way. Of the others,
// those plain go test passes are the tool's doing (candidates): Options.
// TestUntil is not asked about them, and the search goes on.
func (s *search) told(t *target, f *failure) bool {
	if f.unperturbed() {
		return false // the unperturbed schedule's own: t.plainKeys is not set yet
	}
	return !t.plainDecides(f) || t.somePassed() || t.plainSame[f.key()]
}

// plainDecides reports whether f is a failure of t's unperturbed schedule
// that plain go test decides: not a hang, a livelock or a race, which are
// the code's on any schedule.
func (t *target) plainDecides(f *failure) bool {
	return t.plainKeys[f.key()] && !f.isHang() && !f.isLivelock() && f.kind != checks.DataRace
}

// pending reports whether a failure of t's search waits to be told (a
// schedule that passes, or plain go test failing the same way): its
// processes then stop at their first pass, not at a failure (s.mu held).
func (s *search) pending(t *target) bool {
	return t.untold != nil && !t.refused && !s.told(t, t.untold)
}

// testMet reports whether Options.TestUntil accepted a failure of t.
func (s *search) testMet(t *target) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return t.stats.Met
}

// stopFile is the file whose existence tells t's processes to start no
// further schedule (rt.Config.StopFile).
func (s *search) stopFile(t *target) string {
	return filepath.Join(s.workDir, sanitize(t.pkg.ImportPath)+"-"+sanitize(t.name)+".stop")
}

// workerStopFile is the stop file of worker k's processes of t: worker
// 0's is t's own, the others' their own, so that a test searched by one
// worker from then on (target.alone) stops the others only.
func (s *search) workerStopFile(t *target, k int) string {
	if k == 0 {
		return s.stopFile(t)
	}
	return strings.TrimSuffix(s.stopFile(t), ".stop") + "-w" + strconv.Itoa(k) + ".stop"
}

// stopWorkers tells the processes of t's workers from `from` on to start
// no further schedule.
func (s *search) stopWorkers(t *target, from int) {
	if s.workDir == "" {
		return
	}
	for k := from; k < max(s.opts.Workers, 1); k++ {
		_ = os.WriteFile(s.workerStopFile(t, k), nil, 0o644)
	}
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
	if s.aloneFails(t, f) {
		return
	}
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
		onStart: s.processStarted,
		fresh:   &s.fresh,
		cfg: rt.Config{
			Test:        pc.t.name,
			Strategy:    pc.f.strategy,
			Seed:        pc.seed,
			First:       0,
			Schedules:   1,
			Deadline:    time.Now().Add(time.Minute),
			StepTimeout: s.opts.StepTimeout,
			KeepEarly:   s.opts.KeepEarly != nil,
			EarlySleep:  s.opts.EarlySleep,
			Runs:        s.opts.Runs,
			MaxSteps:    cmp.Or(pc.f.maxSteps, s.opts.MaxSteps),
			TestTimeout: s.opts.TestTimeout,
			Run:         s.subRun,
			Skip:        s.subSkip,
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
			f.decisions, f.clockBase, f.moves = r.Decisions, r.ClockBase, r.EarlyMoves
		}
	}
	s.record(pc.t, f, false)
}

// keepInstead: is f a better schedule to tell than old, of the same
// failure? One without an early jump of the clock (a sleep or a timer
// ending while goroutines could run, which needs a loaded machine), else
// one with fewer decisions, easier to read.
func keepInstead(f, old *failure) bool {
	if fe, oe := len(f.moves) > 0, len(old.moves) > 0; fe != oe {
		return oe
	}
	return len(f.decisions) < len(old.decisions)
}
