// The search of the tests whose share of the budget cannot pay a process of their own: rounds of batches, every test a few schedules in each.

package explore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// batchIndexBase starts the schedule indexes of batched searches, far
// from the workers' (k*workerStride): a test's seeds never repeat.
const batchIndexBase = 1 << 48

// maxRoundSchedules bounds the schedules of one test in one round.
const maxRoundSchedules = 64

// aloneProcesses is how many processes of one schedule a test's share of
// the search must pay for the test to be searched by processes of its
// own; with less, most of it would go to starting processes.
const aloneProcesses = 4

// splitBatched splits searched into the tests whose share of left pays
// less than aloneProcesses processes of their own, to search in batches,
// and the others; part is the sum of the first ones' shares. Fewer than
// two such tests are not batched.
func splitBatched(left time.Duration, searched []*target) (batched, alone []*target, part time.Duration) {
	left = max(left, 0) // the failures found may need more than is left
	shares, costs := budgetShares(searched)
	var sum float64
	for i, t := range searched {
		if left > 0 && float64(left)*shares[i] >= float64(aloneProcesses*oneProcess(costs[i])) {
			alone = append(alone, t)
			continue
		}
		batched = append(batched, t)
		sum += shares[i]
	}
	if len(batched) < 2 {
		// One test alone gains nothing from a batch: its own workers.
		return nil, searched, 0
	}
	return batched, alone, time.Duration(float64(left) * sum)
}

// searchBatches searches targets until end in rounds: each round runs
// the tests in batches (batchesOf), the first round one schedule of each,
// each next round twice the time of the one before, spread over the
// tests by weight (roundCounts: a cheap test runs many schedules where a
// slow one of the same weight runs one); no test gets a second schedule before every test got its
// first. The batches end earlier as the failures found need more time
// after the search (searchReserve, asked before each).
func (s *search) searchBatches(ctx context.Context, targets []*target, end time.Time) {
	until := func() time.Time {
		return minTime(end, s.deadline.Add(-s.searchReserve(targets...)))
	}
	// What the batches get: less when the failures found need the rest.
	endStage := s.stage(fmt.Sprintf("searching %d tests in batches for %v", len(targets), max(time.Until(until()), 0).Round(100*time.Millisecond)))
	before := 0
	s.mu.Lock()
	for _, t := range targets {
		before += t.stats.Schedules
	}
	s.mu.Unlock()
	rounds := 0
	credit := make([]time.Duration, len(targets))
	weights := make([]float64, len(targets))
	for i, t := range targets {
		weights[i] = t.weight
	}
	for per := 1; ctx.Err() == nil && time.Until(until()) > 0 && !s.isMet(); per = min(2*per, maxRoundSchedules) {
		rounds++
		counts := make([]int, len(targets))
		for i := range counts {
			counts[i] = 1 // the first round: every test its first schedule
		}
		if rounds > 1 {
			counts = s.roundCountsFor(targets, weights, credit, per)
		}
		n := map[*target]int{}
		var queue [][]*target
		for _, c := range countsDown(counts) {
			var group []*target
			for i, t := range targets {
				if counts[i] == c {
					group = append(group, t)
					n[t] = c
				}
			}
			queue = append(queue, batchesOf(group, s.opts.Workers, 1)...)
		}
		s.runBatches(ctx, queue, until, func(b []*target, k int) []*target {
			return s.searchBatch(ctx, b, k, n[b[0]], until())
		})
		for _, t := range targets {
			s.confirmCrashes(ctx, t)
		}
	}
	// Whether plain go test leaves running what some schedule did, once
	// each test's search is over (as searchTests asks after each test),
	// inside the batches' part: the tests searched after them keep
	// theirs. Batched tests are the slow ones: ratelimit's three leaking
	// tests (1 to 6 s a plain run) took 14 to 22 s here past a 15.5 s
	// part (plain runs, and waits for the unperturbed runs' plain go
	// test), and the three tests searched next got 0 s each.
	for _, t := range targets {
		s.checkLeftRunning(ctx, t, end)
	}
	after := 0
	s.mu.Lock()
	for _, t := range targets {
		after += t.stats.Schedules
	}
	s.mu.Unlock()
	endStage(fmt.Sprintf("%d schedules in %d rounds", after-before, rounds))
}

// roundCountsFor is roundCounts for targets, with one schedule in every
// round for a test whose unperturbed schedule's failure still waits for
// a schedule that passes (awaitsPass): without one, the failure is filed
// as the tool's doing, never told. A slow test's credit pays no schedule
// in most rounds: go-datastructures v1.1.7's dtrie TestIterate (2.2 s a
// schedule, 98 tests in 21.5 s of batches) ran 2 schedules, both failing
// with a leak that 33 of 44 schedules of a search of its own do not
// have (plain go test -race has it once in 200 repetitions), and the
// leak was noted as "most likely the tool's doing".
func (s *search) roundCountsFor(targets []*target, weights []float64, credit []time.Duration, per int) []int {
	costs := s.scheduleCosts(targets)
	counts := roundCounts(costs, weights, credit, per)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, t := range targets {
		if counts[i] == 0 && s.awaitsPass(t) {
			counts[i] = 1
			credit[i] = max(credit[i]-costs[i], 0)
		}
	}
	return counts
}

// awaitsPass reports whether a failure of t's unperturbed schedule is one
// toolsDoing would file as the tool's doing for want of a schedule of t
// that passes (s.mu held): not a hang, livelock or race, not one plain go
// test has too.
func (s *search) awaitsPass(t *target) bool {
	if t.somePassed() {
		return false
	}
	for k := range t.plainKeys {
		if f := s.failures[t.name+"|"+k]; f != nil && t.plainDecides(f) && !t.plainSame[k] {
			return true
		}
	}
	return false
}

// decideAwaiting searches alone, after the batches, each of batched
// whose unperturbed schedule's failure still waits for a schedule that
// passes (awaitsPass), until its first pass: the time of aloneProcesses
// processes of one schedule at most, and a quarter of what is left. One
// schedule a round is a floor, not a verdict: go-datastructures v1.1.7's
// dtrie TestIterate (2.2 s a schedule) ran 3 schedules in its batches,
// each failing with a real leak that 33 of 44 schedules of a search of
// its own do not have, and the leak was filed as the tool's doing.
func (s *search) decideAwaiting(ctx context.Context, batched []*target) {
	var awaiting []*target
	s.mu.Lock()
	for _, t := range batched {
		if s.awaitsPass(t) {
			awaiting = append(awaiting, t)
		}
	}
	s.mu.Unlock()
	for _, t := range awaiting {
		left := time.Until(s.deadline) - s.shrinkReserve()
		if ctx.Err() != nil || left <= 0 || s.isMet() {
			return
		}
		one := oneProcess(s.scheduleCosts([]*target{t})[0])
		slice := min(aloneProcesses*one, left/4)
		if slice < one {
			continue
		}
		s.mu.Lock()
		t.seekPass = true
		s.mu.Unlock()
		// searchBatches asked about what it leaves running already.
		s.searchOne(ctx, t, slice, fmt.Sprintf("searching %s.%s alone for %v: every schedule of it failed so far, the unperturbed one included, in a way plain go test has not; one that passes tells the failure as the code's", t.pkg.ImportPath, t.name, slice.Round(100*time.Millisecond)), false)
		s.mu.Lock()
		t.seekPass = false
		s.mu.Unlock()
	}
}

// nextBatchIndex reserves n schedule indexes for a batch and returns the
// first.
func (s *search) nextBatchIndex(n int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := batchIndexBase + s.batchNext
	s.batchNext += n
	return first
}

// batchSlot is the least wall time one process of a batched search is
// given before the end is asked again (at least a quarter of what is left).
const batchSlot = 2 * time.Second

// searchBatch runs per schedules of each test of batch in one process
// (worker k's), starting none after end nor after its slot (a quarter of
// what is left, at least batchSlot), and collects each test's failures as
// its own worker's would be. It returns the tests the process did not
// reach: after a crash, leftovers in the way or the end of its slot.
func (s *search) searchBatch(ctx context.Context, batch []*target, k, per int, end time.Time) []*target {
	if time.Until(end) <= 0 {
		return nil
	}
	slotEnd := minTime(end, time.Now().Add(max(time.Until(end)/4, batchSlot)))
	names := make([]string, len(batch))
	var step time.Duration
	s.mu.Lock()
	for j, t := range batch {
		names[j] = t.name
		step = max(step, t.step)
	}
	s.mu.Unlock()
	first := s.nextBatchIndex(len(batch) * per)
	last := slotEnd.Add(-step)
	hard := slotEnd.Add(min(max(time.Until(slotEnd)/2, time.Second), childGrace))
	if hard.After(s.hardStop) {
		hard = s.hardStop
	}
	at := func(index int) int { return (index - first) / per }
	t0 := batch[0]
	c := &child{
		bin:     t0.bin,
		dir:     t0.pkg.Dir,
		workDir: s.workDir,
		onStart: s.processStarted,
		fresh:   &s.fresh,
		cfg: rt.Config{
			Batch:       names,
			Strategy:    s.opts.Strategy,
			Seed:        s.opts.Seed,
			First:       first,
			Schedules:   per,
			Deadline:    last,
			Until:       slotEnd,
			StepTimeout: s.opts.StepTimeout,
			KeepEarly:   s.opts.KeepEarly != nil,
			EarlySleep:  s.opts.EarlySleep,
			Runs:        s.opts.Runs,
			MaxSteps:    s.searchBound(t0), // batchesOf: one bound a batch
			TestTimeout: s.opts.TestTimeout,
			Run:         s.subRun,
			Skip:        s.subSkip,
			Targets:     s.opts.Targets,
		},
		onResult: func(r rt.Result) {
			if j := at(r.Index); j >= 0 && j < len(batch) {
				s.counted(batch[j], r)
			}
		},
	}
	out, err := c.run(ctx, hard, fmt.Sprintf("%s-search-w%d-%d", sanitize(t0.pkg.ImportPath), k, first))
	if err != nil {
		s.note(fmt.Sprintf("%s: %v", t0.name, err))
		return nil
	}
	for j, t := range batch {
		lo := first + j*per
		part := out.part(lo, lo+per)
		if len(part.results) == 0 && part.crashed < 0 && len(part.races) == 0 && !part.killed {
			continue
		}
		var took time.Duration
		for _, r := range part.results {
			took += r.Elapsed
		}
		s.mu.Lock()
		t.stats.Elapsed += took
		s.mu.Unlock()
		s.collectIn(t, part, lo, s.opts.Strategy, out, func(i int) string {
			if j := at(i); j >= 0 && j < len(batch) {
				return batch[j].name
			}
			return t.name
		})
		if part.crashed >= 0 || part.killed {
			s.afterProcess(ctx, t, part, end)
		}
	}
	rest := -1
	switch {
	case out.crashed >= 0:
		rest = at(out.crashed) + 1
	case out.leftovers >= 0:
		rest = at(out.leftovers)
		if (out.leftovers-first)%per != 0 {
			rest++ // that test ran some of its schedules
		}
	case out.lastRun >= 0:
		// Stopped at the end of its slot, or done: the tests after the
		// one it ran last.
		rest = at(out.lastRun) + 1
	}
	if rest < 0 || rest >= len(batch) {
		return nil
	}
	return batch[rest:]
}

// minTime is the earlier of a and b.
func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// part is what o did with the schedules lo..hi-1 of a batch: their
// results, races, logs, and the crash or the kill when it came in one of
// them; the tails of its output are the whole process's.
func (o *childOutcome) part(lo, hi int) *childOutcome {
	in := func(i int) bool { return i >= lo && i < hi }
	p := &childOutcome{crashed: -1, leftovers: -1, lastRun: -1, maxSteps: o.maxSteps, stdout: o.stdout, stderr: o.stderr, logs: map[int][]string{}, logSubs: map[int][]string{}}
	for _, r := range o.results {
		if in(r.Index) {
			p.results = append(p.results, r)
			p.started++
		}
	}
	for _, rep := range o.races {
		if in(rep.Index) {
			p.races = append(p.races, rep)
		}
	}
	for i, l := range o.logs {
		if in(i) {
			p.logs[i], p.logSubs[i] = l, o.logSubs[i]
		}
	}
	if in(o.crashed) {
		p.crashed, p.crashText, p.exitErr = o.crashed, o.crashText, o.exitErr
		p.started++
	}
	if in(o.lastRun) {
		p.lastRun = o.lastRun
		p.killed, p.quiet, p.exitStopped = o.killed, o.quiet, o.exitStopped
	}
	return p
}

// oneProcess is the wall time a process running one schedule of a test
// that costs cost takes, as searchSlice counts it.
func oneProcess(cost time.Duration) time.Duration {
	return cost + cost/5 + 100*time.Millisecond
}

// scheduleCosts is the wall time one schedule of each test took: its
// batched schedules' mean once it ran some, else its measured cost.
func (s *search) scheduleCosts(targets []*target) []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]time.Duration, len(targets))
	for i, t := range targets {
		c := t.cost
		if t.stats.Schedules > 0 && t.stats.Elapsed > 0 {
			c = t.stats.Elapsed / time.Duration(t.stats.Schedules)
		}
		out[i] = max(c, time.Millisecond)
	}
	return out
}

// roundCounts is how many schedules each test runs in a round after the
// first: each test's part of the round is per schedules of the median
// cost (the even spread), times its weight over the mean weight when
// that is more (aimFirst's weights give the tests that run rare changed
// code more: ttlcache's Test_Cache_set, the one test running its changed
// Start and Stop together, ran 2 schedules in 21.8 s of evenly spread
// batches where the quick tests ran 50 to 70). The even spread is every
// test's floor: with parts by weight alone, otelmetric v1.39.0's
// TestPeriodicReaderInstrumentationError, whose changed lines every
// reader test runs, ran 2 schedules where the even spread gave it 66 and
// the race. So a round costs at most twice the even spread. A test adds
// its part to its credit and runs as many whole schedules as the credit
// pays (a power of two, at most maxRoundSchedules, so that few batches
// differ), keeping the rest for the next round; a slow test may run none
// in one round. With the same count for every test, the slow ones
// (seconds a schedule under the scheduler) took most of the budget and
// the quick ones ran two schedules where a share of their own gave them
// tens (a data race lost).
func roundCounts(costs []time.Duration, weights []float64, credit []time.Duration, per int) []int {
	sorted := slices.Clone(costs)
	slices.Sort(sorted)
	even := float64(time.Duration(per) * sorted[len(sorted)/2])
	var wsum float64
	for _, w := range weights {
		wsum += w
	}
	out := make([]int, len(costs))
	for i, c := range costs {
		part := even
		if wsum > 0 {
			part *= max(1, weights[i]*float64(len(weights))/wsum)
		}
		credit[i] += time.Duration(part)
		n := int(min(credit[i]/c, maxRoundSchedules))
		for n&(n-1) != 0 {
			n &= n - 1 // down to a power of two
		}
		out[i] = n
		credit[i] -= time.Duration(n) * c
		if n == maxRoundSchedules {
			credit[i] = min(credit[i], c) // past the bound: not hoarded
		}
	}
	return out
}

// countsDown lists the distinct counts above zero, largest first.
func countsDown(counts []int) []int {
	var out []int
	for _, c := range counts {
		if c > 0 && !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out
}
