// Splitting the budget: the search's end, each test's slice of it, and the time kept for what follows the search.

package explore

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// overrunSlack is the last part of the budget, after the search's own end
// (deadline): the processes in flight then report and exit in it, and the
// watchdog kills what still runs at its end (hardStop, the end of the
// budget). 2% of the budget, a second when that is more, but never more
// than 5% of it: the budget is kept within 5%.
func overrunSlack(budget time.Duration) time.Duration {
	return min(max(budget/50, time.Second), budget/20)
}

// replayBy is rt.Config.ReplayBy of a test process started now: the end
// of the budget less what a process takes outside its schedules (as the
// latest took: at load 38, 1.3 s from the last schedule to the exit) for
// its own exit and each of the replayTries replays of a failure it may
// find. Zero when the budget has no end.
func (s *search) replayBy() time.Time {
	if s.hardStop.IsZero() {
		return time.Time{}
	}
	return s.hardStop.Add(-(1 + replayTries) * max(processStartup, s.fresh.recent()))
}

// stopBy is when the processes after the search (replays, shrinking) must
// end for the command to end by the hard stop: that, less what the latest
// processes stopped at their deadline took to be gone (a race-built
// process killed in a long test, reaped and read, under load) and what
// telling the failures again after the replays takes (tellAfter, as the
// report's first telling of them took). Zero when the budget has no end.
// Before, a replay was killed at the hard stop itself, and the findings
// were told after it: goworkerpool's -budget 60s ended 0.8 s past it,
// rill's 3.3 s (four leaks of 20,000 decisions told in 2 s, load ~35).
func (s *search) stopBy() time.Time {
	if s.hardStop.IsZero() {
		return time.Time{}
	}
	return s.hardStop.Add(-s.fresh.recentStop() - s.tellAfter)
}

// replayOverrun is how far past the end of the budget the first replay
// of a failure may run when what is left of the budget does not hold it
// (replaysAlone): a tenth of the budget, at least 3 s. Without it such a
// failure, found under control, was not reported (or reported unreplayed):
// 3 of the recall yardstick's 339 bug-kernel searches of 2026-12-02 found
// their failure and dropped it. It is spent only on a failure that would
// otherwise go unreplayed, once past the budget's end for all of them (the
// causes' first replays share it, one after another), and no shrinking,
// plain go test run or try that only gives a reproduced failure's rate
// follows it there: a search that finds nothing, or whose replays fit,
// keeps the budget within 5%.
func replayOverrun(budget time.Duration) time.Duration {
	return max(budget/10, 3*time.Second)
}

// overrunEnd is the latest a first replay may end when the budget has no
// time left for it: replayOverrun past the hard stop (a replay stopped
// there then takes its exit's time to be gone). Not less what stopBy
// keeps: the time telling the failures again takes (past stopBy nothing
// is told again: shrinkFindings, unreplayed; at load 35 bigcache's two
// long leaks took 10.2 s to tell, more than the overrun), nor what the
// latest stopped processes took to be gone (on a loaded machine as long
// as the overrun: the recall yardstick's rlockwaitchan, at load 25,
// found no overrun left and dropped its deadlock). Zero when the budget
// has no end.
func (s *search) overrunEnd() time.Time {
	if s.hardStop.IsZero() {
		return time.Time{}
	}
	return s.hardStop.Add(replayOverrun(s.opts.Budget))
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

// shrinkReserve is the part of the budget the search leaves for what
// follows it: replaying each failure found so far alone, running its
// test under plain go test, shrinking and telling it. Half of a tenth of
// the budget (at most shrinkTime) when there are none yet, for those a
// test's slice may still find, with two processes' start-up (a finding
// whose replay check finds no time left is not reported); else what
// their replays and plain runs take by their tests' measured cost (or
// the failing schedule's run time, when longer), at least that tenth, at
// most a quarter of the budget but never less than the replays; and
// Options.KeepAfter (or KeepFor of the causes' costs) once a failure is
// found, and telling the failures, by their length (tellReserve). Only what the report will
// replay counts, once per cause (reserveKey): not a failure of an
// unperturbed run that plain go test tells as the tool's doing (gocron's
// 7 such, with 12 leaks of one cause, kept the search from all but 6s of
// its 90s).
func (s *search) shrinkReserve() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	base := min(shrinkTime, s.opts.Budget/10)
	keep := s.callerKeep()
	if len(s.order) == len(s.reported) && len(s.crashes) == 0 {
		// And the start-up of two processes: a replay that comes too late
		// for a small budget does not report the finding (a late
		// failure's replay at what fresh processes take: searchReserve).
		return min(base/2+2*processStartup, s.opts.Budget/4) + keep
	}
	costs, plainRan := s.causeCosts(true, true)
	return postReserve(base, s.opts.Budget/4, costs, plainRan) + keep + s.tellReserve()
}

// tellPerDecision prices telling one decision of a failing schedule after
// the search (candidates: the story, the schedule file, the token): at
// load 20-25, with each site's line read once, bigcache's leak of 54,083
// decisions took 1.3 s to tell, about 25 µs a decision; twice that, as
// the load rises while the search ends.
const tellPerDecision = 50 * time.Microsecond

// tellReserve is what telling the failures no report went through yet
// takes after the search, every one kept (the report tells each, not once
// per cause), priced by its length in decisions. Kernels' schedules of a
// few hundred decisions cost milliseconds; bigcache's two leaks (54,083
// and 61,158) about 6 s, which the reserve kept nowhere: told after the
// search ended, they left the first replay no time. The caller holds s.mu.
func (s *search) tellReserve() time.Duration {
	var n int
	for _, k := range s.order {
		if f := s.failures[k]; f != nil && !s.reported[k] {
			n += len(f.decisions)
		}
	}
	return time.Duration(n) * tellPerDecision
}

// callerKeep is what the caller's own work after the search takes
// (Options.KeepAfter, or KeepFor of the causes' costs) once a failure is
// found: the pull-request job's replays and search on the base commit.
// The caller holds s.mu.
func (s *search) callerKeep() time.Duration {
	if len(s.order) == 0 {
		return 0
	}
	if s.opts.KeepFor == nil {
		return s.opts.KeepAfter
	}
	// The caller's work after the search is for every failure, told
	// already or not.
	var need []CauseCost
	for _, x := range s.reserveCauses(false, false) {
		need = append(need, x.CauseCost)
	}
	return s.opts.KeepFor(need)
}

// CauseCost is what the caller's check of one cause on the base commit
// takes (Options.KeepFor): one replay of its schedule, and the search of
// its test that gives the base its chances at it (baseSearchFor).
type CauseCost struct {
	Replay, Search time.Duration
}

// baseSearchFor is how long a search of t on the base commit takes to
// run the schedules that, all missing its failure of key k, would show
// the base fails that way less often than the head (chancesNeeded, the
// replay being one), at the head's speed on t (its searched time per
// schedule; its cost before that is known). ttlcache-stopfirst's leak,
// 9 of 470, needs 185; in the thirtieth session its base stage ran 6
// schedules in 13.4 s. The caller holds s.mu.
func (s *search) baseSearchFor(t *target, k string) time.Duration {
	n := chancesNeeded(s.frequency(t, k)) - 1
	if n <= 0 {
		return 0
	}
	per := t.cost
	if t.stats != nil && t.stats.Schedules > 0 && t.stats.Elapsed > 0 {
		per = t.stats.Elapsed / time.Duration(t.stats.Schedules)
	}
	return time.Duration(n) * per
}

// frequency is how often t's search failed as key k, as its finding
// tells it (nil before any such failure). The caller holds s.mu.
func (s *search) frequency(t *target, k string) *checks.Frequency {
	c := s.counts[k]
	if c <= 0 {
		return nil
	}
	n, unseen, inconclusive := c, 0, 0
	if t.stats != nil {
		// Left out: a race's schedules after its report in their process
		// (masked), and those that ended inconclusive (go-generics-cache's
		// janitor leak, on every conclusive schedule, was "149 of 180").
		n = max(c, t.stats.Schedules-s.masked[k]-t.stats.Inconclusive)
		inconclusive = min(t.stats.Inconclusive, t.stats.Schedules-n)
		unseen = t.stats.Schedules - n - inconclusive
	}
	q := &checks.Frequency{Failing: c, Schedules: n, Unseen: unseen, Inconclusive: inconclusive}
	if _, key, ok := strings.Cut(k, "|"); ok && !q.Every() {
		q.PassedOnlyAfterOthers = passedOnlyAfterOthers(t, key)
	}
	return q
}

// optionalBy is when the work after the search that a finding can do
// without (shrinking its schedule, the replays after one reproduced it,
// which only give its rate) must end: stopBy less what the caller keeps
// (keptAfter). A finding not compared with the base commit is not posted;
// one not shrunk is posted with its schedule as found. Before,
// ttlcache-stopfirst's shrinking and replays took 23.3 s and left the
// base commit 1.4 s: its leak went to the summary, "not compared".
func (s *search) optionalBy() time.Time {
	stopBy := s.stopBy()
	if stopBy.IsZero() {
		return stopBy
	}
	return stopBy.Add(-s.keptAfter)
}

// replaysReserve is what the replays of the failures found so far take
// (postReserve's replays, every try, by the same measured costs): what
// the plain go test runs for labels during the search leave free
// (beforeReplays).
func (s *search) replaysReserve() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	costs, plainRan := s.causeCosts(true, true)
	var need time.Duration
	for _, c := range append(costs, plainRan...) {
		need += replayTries * c
	}
	return need
}

// causeCosts returns, for the failures found that the report will replay
// (with untold, only those no report went through yet), once per cause
// (reserveKey), what one fresh replay of each costs (with fresh,
// replayCost: its test's measured cost, which holds its process's start
// and exit, or the failing schedule's time plus what fresh processes take
// outside their schedules now, when longer; without, as Options.KeepFor
// is given it: the longer of the two measured times), split by whether
// its test ran under plain go test already (plainRan) or not (costs). The
// caller holds s.mu.
func (s *search) causeCosts(untold, fresh bool) (costs, plainRan []time.Duration) {
	for _, x := range s.reserveCauses(untold, fresh) {
		if x.ran {
			plainRan = append(plainRan, x.Replay)
		} else {
			costs = append(costs, x.Replay)
		}
	}
	return costs, plainRan
}

// causeCost is one cause's replay cost (as causeCosts gives it) and the
// search on the base commit it needs (baseSearchFor, the most of its
// members'), and whether its test ran under plain go test already.
type causeCost struct {
	CauseCost
	ran bool
}

// reserveCauses is causeCosts' list, one per cause in the order found.
// The caller holds s.mu.
func (s *search) reserveCauses(untold, fresh bool) []causeCost {
	// A fresh process's start and exit as the latest took them: on a
	// loaded machine seconds, not processStartup (condsignalnolock's and
	// ctxafterfuncstop's replays found no time left in a 10s budget).
	startup := max(processStartup, s.fresh.recent())
	byCause := map[string]*causeCost{}
	var order []string
	for _, k := range s.order {
		t, f := s.owners[k], s.failures[k]
		if t == nil || f == nil || s.toolsDoing(t, f) || untold && s.reported[k] {
			continue
		}
		// A failure late in a long schedule replays for as long as that
		// schedule ran, which may be far more than its test's cost.
		c := max(t.cost, f.elapsed)
		if fresh {
			c = replayCost(t.cost, f.elapsed, startup)
		}
		if n := len(f.prior); n > 0 && !f.kept {
			// One replay more, after the schedule before it in its
			// process, if alone it does not reproduce (replaysAfter):
			// half of one, as the two tries of replaysAlone count it.
			if fresh {
				c += (c + f.prior[n-1].Elapsed) / 2
			} else {
				c += (c + f.prior[n-1].Elapsed + processStartup) / 2
			}
		}
		ran := t.plainGo != nil && t.plainGo.err == nil || t.leftGo != nil && t.leftGo.err == nil
		rk := reserveKey(t, f)
		x := byCause[rk]
		if x == nil {
			x = &causeCost{CauseCost{Replay: c}, ran}
			byCause[rk] = x
			order = append(order, rk)
		}
		// The costliest member of a cause counts.
		if c > x.Replay {
			x.Replay, x.ran = c, ran
		}
		x.Search = max(x.Search, s.baseSearchFor(t, k))
	}
	out := make([]causeCost, 0, len(order))
	for _, rk := range order {
		out = append(out, *byCause[rk])
	}
	return out
}

// toolsDoing reports whether failure f of t is one the report notes as
// the tool's doing and does not replay (search.candidates): every
// schedule failed, the unperturbed one included, but plain go test ran
// and did not fail this way, and plain go test is not known to have
// shown it (Options.PlainShown). The caller holds s.mu.
func (s *search) toolsDoing(t *target, f *failure) bool {
	if !toolsDoing(t, f) {
		return false
	}
	return s.opts.PlainShown == nil || !s.opts.PlainShown(makeFinding(f, t.pkg.ImportPath, t.name, ""))
}

func toolsDoing(t *target, f *failure) bool {
	return t.plainDecides(f) && t.plainGo != nil && t.plainGo.err == nil && !t.plainSame[f.key()] && !t.somePassed()
}

// reserveKey is what shrinkReserve counts once: the report replays one
// failure per cause (replayCauses), and failures stuck at the same sites
// outside the tests (deadlocks, leaks), unperturbed runs' test failures
// of one package and message, or failures of one kind at one site with
// one message, are one cause in whichever test.
func reserveKey(t *target, f *failure) string {
	if f.kind == checks.Deadlock || f.kind == checks.Leak {
		var stuck []string
		for _, g := range f.goroutines {
			if file, _, ok := cutSite(g.Site); ok && !strings.HasSuffix(file, "_test.go") {
				stuck = append(stuck, g.Site)
			}
		}
		if len(stuck) > 0 {
			return fmt.Sprintf("stuck|%s|%v|%s", f.kind, f.isRunningLeak(), strings.Join(sortedUnique(stuck), " "))
		}
	}
	if f.kind == checks.TestFailure && f.unperturbed() && f.afterPrior == 0 {
		// An unperturbed run's test failure: one cause with the others
		// of its package and message (causeKeys' setup key).
		if m := setupMessage(f.message); m != "" {
			return "setup|" + t.pkg.ImportPath + "|" + m
		}
	}
	if f.site == "" {
		return "key|" + f.key()
	}
	return fmt.Sprintf("site|%s|%s|%s", f.kind, f.site, normalizeMessage(f.message))
}

// postReserve is the time kept after the search for failures one fresh
// replay of which costs costs (replayCost: a process's start and exit
// included): the replayTries replays of each and plainRuns plain go test
// runs, each about as long; only the replays for those of plainRan, whose
// test ran under plain go test already; at least least, at most most, but
// never less than the first replay of each (a finding is reported once a
// replay alone reproduced it; the tries after the first only give its
// rate, and run when the first tries of the causes after it still fit:
// replaysAlone). Before, each replay counted its process's start twice
// (in its test's cost and again) and every try was kept whatever most
// said: rill's four leaks kept 44 s of its -budget 60s, and the search
// and the slow tests' second runs got nothing.
func postReserve(least, most time.Duration, costs, plainRan []time.Duration) time.Duration {
	var need, firsts time.Duration
	for _, c := range costs {
		need += (replayTries + plainRuns) * c
		firsts += c
	}
	for _, c := range plainRan {
		need += replayTries * c
		firsts += c
	}
	return max(min(max(need, least), most), firsts)
}

// replayCost is what a replay of a late failure of t is priced at: its
// measured cost, or its longest step when longer. The caller holds s.mu.
func (t *target) replayCost() time.Duration { return max(t.cost, t.step) }

// searchReserve is what the search keeps after it while it searches ts:
// shrinkReserve and, when some of ts has no failure yet, one replay of one
// more failure of the costliest of those (its test's cost or longest
// schedule, in a fresh process at what the latest fresh processes took to
// start and exit, measured during the run): a failure found in the
// search's last moments then replays inside the budget. Before, such a
// failure's replays ran past the budget (conc 63.6 s, ratelimit 64.2 s of
// -budget 60s). One replay that reproduces it reports it (the second try
// and its plain go test runs are left out when no time is left, and said).
func (s *search) searchReserve(ts ...*target) time.Duration {
	r := s.shrinkReserve()
	s.mu.Lock()
	owns := map[*target]bool{}
	for _, k := range s.order {
		owns[s.owners[k]] = true
	}
	var costs []time.Duration
	for _, t := range ts {
		if !owns[t] {
			costs = append(costs, t.replayCost())
		}
	}
	s.mu.Unlock()
	if len(costs) == 0 {
		return r
	}
	fits := time.Duration(math.MaxInt64)
	if len(costs) > 1 && !s.deadline.IsZero() {
		// Of several tests, one whose schedule takes more than half of
		// what is left cannot fail late and replay too; kept for, it
		// left the others no time (pond's 25 s unperturbed schedule:
		// "searching 64 tests in batches for 0s" with 34 s left).
		fits = (time.Until(s.deadline) - r) / 2
	}
	var c time.Duration
	for _, d := range costs {
		if d <= fits {
			c = max(c, d)
		}
	}
	return r + c + max(processStartup, s.fresh.recent())
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
		need += plainRuns * (t.plainCost() + processStartup)
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

// testSlice is the wall time the first of the tests still to search gets
// out of left: its searchSlice of what the failures found leave (shrink,
// shrinkReserve), but ending early enough for the replays of one more
// failure it may find at the very end (late, searchReserve).
func testSlice(left, shrink, late time.Duration, shares []float64, costs []time.Duration) time.Duration {
	return min(searchSlice(left-shrink, shares, costs), max(left-late, 0))
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

// schedulesLeft is how many more schedules of a test a worker that ran
// done of them may run under Options.Schedules, as rt.Config.Schedules
// takes it (0: no bound); more is false once the bound is reached.
func schedulesLeft(bound, done int) (n int, more bool) {
	if bound <= 0 {
		return 0, true
	}
	return bound - done, done < bound
}
