// The unperturbed schedules of many tests in one process: what a process start costs is paid once per batch, not once per test.

package explore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// maxBatch bounds the tests of one batch: a crash or a leftover in the way
// costs the rest of its batch a new process, no more.
const maxBatch = 64

// plainBatches runs the unperturbed schedules of targets in batches until
// end, each for at most limit (batchLimit): one process runs the tests of
// a batch one after another (as go test runs a package's tests), Workers
// processes at a time. A test whose
// schedule there passed is measured (its schedule's wall time plus what
// its process spent outside schedules, the start of a process of its own)
// and can be searched. A test still running at limit (the last of its
// batch: at twice limit) stops its process and is marked stopped, slow: the rounds after the first pass run it
// alone with more (the tests after it go on in a new batch). Any other (a
// failure, a race, a crash, a schedule beside leftovers in the way,
// stopped at end) stays for plainPass to run alone, as it would have
// without batches; so do the tests the batches did not reach by end.
// Packages with one test are left to plainPass, and so are the tests of a
// package once its batch processes (two at least, not counting those
// stopped in a slow test) passed fewer than two tests each on average.
func (s *search) plainBatches(ctx context.Context, targets []*target, end time.Time, limit time.Duration) {
	queue := batchesOf(targets, s.opts.Workers, 2)
	if len(queue) == 0 {
		return
	}
	endStage := s.stage(fmt.Sprintf("unperturbed runs of %d tests in batches", len(targets)))
	var mu sync.Mutex
	passed := 0
	// Batches that pass fewer than two tests a process save none: once two
	// of a package's did, its tests left run alone (they fail, leak or
	// are slow).
	alone := map[string]bool{}
	procs, passes := map[string]int{}, map[string]int{}
	s.runBatches(ctx, queue, func() time.Time { return end }, func(b []*target, k int) []*target {
		mu.Lock()
		skip := alone[b[0].bin]
		mu.Unlock()
		if skip {
			return nil
		}
		n, rest, slow := s.plainBatch(ctx, b, k, end, limit)
		mu.Lock()
		defer mu.Unlock()
		passed += n
		bin := b[0].bin
		if !slow {
			// A process stopped in a slow test says nothing of what
			// batches save (that test alone costs a process too):
			// ants' first two stopped each in its first test, and its
			// 38 fast tests then ran alone, a process each.
			procs[bin]++
		}
		passes[bin] += n
		if procs[bin] >= 2 && passes[bin] < 2*procs[bin] {
			alone[bin] = true
			return nil
		}
		return rest
	})
	endStage(fmt.Sprintf("%d passed", passed))
}

// batchLimit is how long one test may run in a batch process, of the left
// until the batches' end that workers share among n tests: its fair part,
// a second at least. A test that takes longer stops its batch there.
func batchLimit(left time.Duration, workers, n int) time.Duration {
	return max(left*time.Duration(workers)/time.Duration(max(n, 1)), time.Second)
}

// runBatches runs the batches of queue until end() (asked before each),
// Workers at a time, each by run (worker k's); the tests run returns go
// first in a new batch.
func (s *search) runBatches(ctx context.Context, queue [][]*target, end func() time.Time, run func(b []*target, k int) (rest []*target)) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for k := 0; k < s.opts.Workers; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil && time.Until(end()) > 0 {
				mu.Lock()
				if len(queue) == 0 {
					mu.Unlock()
					return
				}
				b := queue[0]
				queue = queue[1:]
				mu.Unlock()
				if rest := run(b, k); len(rest) > 0 && time.Until(end()) > 0 {
					// The tests after a crash, a leftover in the way or
					// the end of a process's slot, in a new process.
					mu.Lock()
					queue = append([][]*target{rest}, queue...)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
}

// batchesOf splits targets into batches of one package and one step
// bound each (a batch process has one: target.maxSteps), about even over
// workers, at most maxBatch tests each; a package with fewer than least
// tests of a bound gets none. A batch runs its tests in go test's order:
// the state a test finds left in its process is left by tests go test
// runs before it too.
func batchesOf(targets []*target, workers, least int) [][]*target {
	type binBound struct {
		bin   string
		steps int
	}
	byBin := map[binBound][]*target{}
	var bins []binBound
	for _, t := range targets {
		key := binBound{t.bin, t.maxSteps}
		if byBin[key] == nil {
			bins = append(bins, key)
		}
		byBin[key] = append(byBin[key], t)
	}
	var out [][]*target
	for _, bin := range bins {
		ts := byBin[bin]
		if len(ts) < least {
			continue
		}
		at := map[*target]int{}
		for _, t := range ts {
			at[t] = slices.Index(t.pkg.Tests, topTest(t.name))
		}
		slices.SortStableFunc(ts, func(a, b *target) int { return cmp.Compare(at[a], at[b]) })
		size := min(max((len(ts)+workers-1)/max(workers, 1), 1), maxBatch)
		for len(ts) > 0 {
			n := min(size, len(ts))
			out = append(out, ts[:n])
			ts = ts[n:]
		}
	}
	return out
}

// batchOutcome is what one batch process did with each of its tests.
type batchOutcome struct {
	passed []rt.Result // by position in the batch; Outcome "" when not a clean pass
	// rest is the position of the first test the process did not run
	// because of a crash before it or leftovers in its way, or -1.
	rest int
	// outside is the process's wall time less the time of every schedule
	// it ran, also the one it was stopped or crashed in: what a test's own
	// process adds to its schedule.
	outside time.Duration
}

// splitBatch reads the outcome of a process that ran the batch of n tests,
// the j-th as schedule index j: which passed cleanly (no failure, no race
// reported in or after it, not the one that crashed, not stopped), and
// where the tests it did not run begin.
func splitBatch(out *childOutcome, n int, wall time.Duration) batchOutcome {
	b := batchOutcome{passed: make([]rt.Result, n), rest: -1}
	raced := map[int]bool{}
	for _, rep := range out.races {
		raced[rep.Index] = true
	}
	var in time.Duration
	for _, r := range out.results {
		in += r.Elapsed
		j := r.Index
		// A schedule stopped by the step bound is the one a process of its
		// own would run (plainRun takes it): run again alone, rill's stream
		// tests of 20,000 decisions paid their unperturbed run twice.
		stepBound := strings.HasPrefix(r.Inconclusive, rt.StepBoundPrefix)
		if j < 0 || j >= n || r.Outcome != "pass" || r.Inconclusive != "" && !stepBound || r.Watchdog > 0 || raced[j] || raced[-1] || j == out.crashed {
			continue
		}
		b.passed[j] = r
	}
	// A slow test stopped at the batch's limit ran in this process too:
	// counted as outside, its run (up to the limit, 1.6-2.4 s in rill)
	// was added to the measured cost of every test the batch passed.
	b.outside = max(wall-in-out.openFor, 0)
	switch {
	case out.crashed >= 0 && out.crashed+1 < n:
		b.rest = out.crashed + 1
	case out.leftovers > 0 && out.leftovers < n:
		b.rest = out.leftovers
	}
	if b.rest < 0 && out.crashed < 0 {
		// Its process ended after a schedule that left the test's
		// goroutine blocked outside control (rt.LostTestNote): the tests
		// after it go on in a new batch, not each alone.
		for _, r := range out.results {
			if strings.HasSuffix(r.Inconclusive, rt.LostTestNote) && r.Index >= 0 && r.Index+1 < n {
				b.rest = r.Index + 1
			}
		}
	}
	return b
}

// plainBatch runs one batch's process until end (worker k's), each
// schedule for at most limit, and records the tests that passed: how
// many, the tests to run in a new process, and whether a test still
// running at limit stopped it (that test is marked stopped, slow).
func (s *search) plainBatch(ctx context.Context, batch []*target, k int, end time.Time, limit time.Duration) (int, []*target, bool) {
	names := make([]string, len(batch))
	for j, t := range batch {
		names[j] = t.name
	}
	stop := minTime(end, s.deadline)
	hard := stop.Add(time.Second)
	if hard.After(s.hardStop) {
		hard = s.hardStop
	}
	t0 := batch[0]
	c := &child{
		bin:           t0.bin,
		dir:           t0.pkg.Dir,
		workDir:       s.workDir,
		onStart:       s.processStarted,
		fresh:         &s.fresh,
		scheduleLimit: limit,
		// The last test runs on to what a run alone after this one
		// would give it (retrySlot: twice the slot): stopped at limit,
		// its run was thrown away and began again from nothing in a
		// process of its own.
		lastLimit: 2 * limit,
		lastIndex: len(batch) - 1,
		cfg: rt.Config{
			Batch:       names,
			Strategy:    rt.PlainStrategy,
			Seed:        s.opts.Seed,
			Schedules:   1,
			Deadline:    stop,
			StepTimeout: s.opts.StepTimeout,
			KeepEarly:   s.opts.KeepEarly != nil,
			EarlySleep:  s.opts.EarlySleep,
			Runs:        s.opts.Runs,
			MaxSteps:    s.plainBound(),
			TestTimeout: s.opts.TestTimeout,
			Run:         s.subRun,
			Skip:        s.subSkip,
			Targets:     s.opts.Targets, // counted, not aimed at
		},
	}
	began := time.Now()
	out, err := c.run(ctx, hard, fmt.Sprintf("%s-batch-w%d-%s", sanitize(t0.pkg.ImportPath), k, t0.name))
	wall := time.Since(began)
	if err != nil {
		s.note(fmt.Sprintf("%s: %v", t0.name, err))
		return 0, nil, false
	}
	b := splitBatch(out, len(batch), wall)
	slow := out.limitStopped && out.crashed >= 0 && out.crashed < len(batch)
	if slow {
		// What its process took outside the other tests' schedules (its
		// start, this test until stopped, the kill) is what a run alone
		// took.
		t := batch[out.crashed]
		ran := max(limit, b.outside+out.openFor)
		if out.crashed == c.lastIndex {
			ran = max(c.lastLimit, b.outside+out.openFor)
		}
		s.mu.Lock()
		t.stopReason = fmt.Sprintf("stopped after %v in a batch", ran.Round(100*time.Millisecond))
		t.ran, t.slot, t.mostSlot = ran, ran, max(t.mostSlot, ran)
		t.stats.Elapsed += ran
		s.mu.Unlock()
	}
	passed := 0
	for j, r := range b.passed {
		if r.Outcome == "" {
			continue
		}
		t := batch[j]
		passed++
		s.passed(t, r, j > 0) // the batch's tests before it ran first
		s.counted(t, r)
		s.plainHits(t, r)
		s.mu.Lock()
		s.plainSteps(t, r, s.plainBound())
		cost := searchCost(r.Elapsed+b.outside, r, t.maxSteps)
		t.plainStopped = false
		t.cost, t.virtual = cost, r.Virtual
		t.stats.Cost = cost
		t.stats.Plain = r.Outcome
		t.stats.Elapsed += r.Elapsed
		t.plainKeys = map[string]bool{}
		s.markNoChoice(t, []rt.Result{r})
		s.mu.Unlock()
	}
	if b.rest < 0 || time.Until(end) <= 0 {
		return passed, nil, slow
	}
	return passed, batch[b.rest:], slow
}
