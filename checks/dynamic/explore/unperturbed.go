// The unperturbed schedule of every test, run first: its measured cost, and whether plain go test fails the same way.

package explore

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// plainIndex is the schedule index of the unperturbed run: it runs in a
// process of its own, so the index only has to differ from the workers'
// in the files it names.
const plainIndex = 0

// plainRuns runs the unperturbed schedule of every test: first in
// batches, many tests of a package in one process (batch.go); those that
// did not pass there each in a fresh process, Workers at a time. The first
// pass, within the first third of the budget, gives each test its fair part of what is left of that third
// and stops it there: a slow test cannot eat the others' turn. The second
// gives the tests the first did not reach theirs, within a third of what
// is then left. Then rounds run again the tests stopped (the slow ones
// first, then those with a goroutine stuck), until two thirds of the
// budget when some test can be searched and its search would get time
// after that (the last third is the search's: roundsEnd), else until its
// end: each gets its fair part of what is left, at least
// twice what it had, or what its last run took when longer (retrySlot;
// and at least the full watchdog when it was stuck), so
// the shorter ones finish first and a lone slow one gets all that is left;
// a test whose unperturbed run fits gets that one complete schedule, and
// one that never returns meets the full watchdog. A test whose unperturbed run does not finish
// even so is not searched (a note says so).
func (s *search) plainRuns(ctx context.Context, targets []*target) {
	for _, t := range targets {
		t.plainStopped = true
	}
	// Batches first: a process start each would cost a suite of fast
	// tests most of its budget. What they leave runs alone.
	first := s.start.Add(s.opts.Budget / 3)
	s.plainBatches(ctx, targets, first, batchLimit(time.Until(first), s.opts.Workers, len(targets)))
	s.plainPass(ctx, notRun(targets), first, nil)
	if unrun := notRun(targets); len(unrun) > 0 {
		s.plainPass(ctx, unrun, time.Now().Add(time.Until(s.deadline)/3), nil)
	}
	for ctx.Err() == nil {
		// Until two thirds of the budget when some test can be searched
		// (the search beyond the unperturbed schedules keeps the last
		// third: a test that never finishes must not take every other
		// test's search; gocron's TestScheduler_ManyJobs did), else until
		// its end; never past the end less what shrinking the failures
		// found so far needs.
		var searchable []*target
		for _, t := range targets {
			if !t.plainStopped {
				searchable = append(searchable, t)
			}
		}
		end := s.roundsEndFor(searchable)
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
		started := 0
		s.plainPass(ctx, again, end, func(t *target, slot time.Duration) time.Duration {
			var least time.Duration
			if t.stuckAtStop {
				least = s.opts.StepTimeout + time.Second
			}
			want := t.retrySlot(slot, least, time.Until(end))
			if want == 0 {
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
	s.longerPass(ctx, targets)
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

// roundsEnd is when the rounds of the stopped tests' unperturbed runs
// end: at end (the search's end less what the failures found need after
// it), or at cut (two thirds of the budget) when some test can be searched
// (searchable) and its search would have time after cut: it ends at
// searchEnd (the search's end less what it keeps after it,
// searchReserve). When what the search keeps takes all of its third, the
// slow tests' runs take it: rill's -budget 60s cut them at 40 s for a
// search of 0 s ("searching 31 tests in batches for 0s").
func roundsEnd(end, cut, searchEnd time.Time, searchable bool) time.Time {
	if searchable && cut.Before(end) && searchEnd.After(cut) {
		return cut
	}
	return end
}

// roundsEndFor is roundsEnd now, the tests that can be searched being
// searchable.
func (s *search) roundsEndFor(searchable []*target) time.Time {
	return roundsEnd(s.deadline.Add(-s.shrinkReserve()), s.start.Add(2*s.opts.Budget/3),
		s.deadline.Add(-s.searchReserve(searchable...)), len(searchable) > 0)
}

// retrySlot is the slot of t's stopped unperturbed run in its next round:
// its fair part, at least twice what it had (the longer of its last slot
// and what its last run took: a run stopped in a short slot takes up to a
// second more, the kill's grace, so twice the slot alone gave ants' slow
// tests barely more than before, round after round) and at least least,
// but not past left; 0 (not run) when that is no more than it had.
func (t *target) retrySlot(fair, least, left time.Duration) time.Duration {
	had := max(t.slot, t.ran)
	want := min(max(fair, 2*had, least), left)
	if want <= had {
		return 0
	}
	return want
}

// notRun is the targets whose unperturbed run has not run yet.
func notRun(targets []*target) []*target {
	var out []*target
	for _, t := range targets {
		if t.stopReason == "" && t.plainStopped {
			out = append(out, t)
		}
	}
	return out
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
	bound := s.plainBound()
	s.mu.Lock()
	longer := t.longerBound
	t.longerBound = 0
	s.mu.Unlock()
	if longer > 0 {
		bound = longer
	}
	c := s.testChild(t, rt.Config{
		Strategy:  rt.PlainStrategy,
		First:     plainIndex,
		Schedules: 1,
		Deadline:  limit,
		MaxSteps:  bound,
	}, nil)
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
	if longer > 0 && !s.longerEnded(t, out, stopped, bound) {
		return // its first run stands
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
		t.ran = cost
		for _, r := range out.results {
			t.stuckAtStop = t.stuckAtStop || r.Watchdog > 0
		}
		t.lastStop = out
		s.mu.Unlock()
		return
	}
	var virtual time.Duration
	var last rt.Result
	for _, r := range out.results {
		s.counted(t, r)
		s.plainHits(t, r)
		virtual = max(virtual, r.Virtual)
		last = r
	}
	s.mu.Lock()
	s.plainSteps(t, last, bound)
	cost = searchCost(cost, last, t.maxSteps)
	if out.crashed < 0 {
		s.markNoChoice(t, out.results)
	}
	t.plainStopped = false
	t.cost, t.virtual = cost, virtual
	t.stats.Cost = cost
	t.stats.Plain = plain
	s.mu.Unlock()
	keys := s.collectPlain(t, out)
	s.afterProcess(ctx, t, out, s.deadline)
	// Plain go test runs beside the rest of the search: a test that hangs
	// there waits out its timeout without holding a worker's turn.
	done := make(chan struct{})
	s.mu.Lock()
	t.plainCheck = done
	s.mu.Unlock()
	s.plainChecks.Add(1)
	go func() {
		defer s.plainChecks.Done()
		defer close(done)
		s.checkPlain(ctx, t, keys)
	}()
}

// markNoChoice marks t as not to be searched past its unperturbed run
// rs when that run passed with no choice (rt.Result.Choices): every
// other schedule is the same one, and the time goes to the tests with
// choices. A failing or inconclusive run, or one beside an earlier
// schedule's leftovers, is searched as before. The caller holds s.mu.
func (s *search) markNoChoice(t *target, rs []rt.Result) {
	if len(rs) == 0 || t.stats.NoChoice {
		return
	}
	for _, r := range rs {
		if r.Choices > 0 || r.Outcome != "pass" || r.Inconclusive != "" || r.Kept > 0 {
			return
		}
	}
	t.stats.NoChoice = true
	s.stats.NoChoice++
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
	// Long enough for a test that passes; a deadlock needs only to be
	// seen hanging once.
	bin, timeout, ok := s.plainWindow(ctx, t, &t.plainGo, s.deadline)
	if !ok {
		return
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
	out := s.runPlain(ctx, t, bin, n, timeout, func(r plainRun) bool {
		for _, f := range fs {
			if sameAsPlain(f, r, t.pkg.Dir) {
				same[f.key()] = true
			}
		}
		return len(same) == len(fs)
	})
	s.stressPlain(ctx, t, bin, fs, same, out)
	s.mu.Lock()
	t.plainGo, t.plainSame = out, same
	s.mu.Unlock()
}
