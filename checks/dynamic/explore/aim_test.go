package explore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// The unperturbed runs' hits put the test that executed a target first,
// with most of the budget; the search's preemptions are counted per site;
// a target no run executed stays listed with no hits.
func TestAimFirst(t *testing.T) {
	t.Parallel()
	s := &search{opts: Options{Targets: []string{"/m/p/pool.go:20", "/m/p/pool.go:40"}}}
	s.startTargets()
	mk := func(name string) *target {
		return &target{name: name, weight: 1, cost: time.Second, stats: &TestStats{Test: name, Plain: "pass", Cost: time.Second}}
	}
	a, b, c := mk("TestA"), mk("TestB"), mk("TestC")
	s.plainHits(a, rt.Result{})
	s.plainHits(b, rt.Result{TargetHits: map[string]int{"/m/p/pool.go:20": 3, "/elsewhere.go:1": 9}})
	s.plainHits(c, rt.Result{})
	s.mu.Lock()
	s.countPreempts(rt.Result{TargetPreempts: map[string]int{"/m/p/pool.go:20": 2}})
	s.countPreempts(rt.Result{TargetPreempts: map[string]int{"/m/p/pool.go:20": 1}})
	s.mu.Unlock()
	got := aimFirst([]*target{a, b, c})
	if got[0] != b || got[1] != a || got[2] != c {
		t.Fatalf("order %s %s %s, want TestB (executes a target) first, then the others in order", got[0].name, got[1].name, got[2].name)
	}
	shares, _ := budgetShares(got)
	if shares[0] < 0.6 {
		t.Errorf("the test that executes a target gets %.2f of the search, want most of it", shares[0])
	}
	want := []TargetStats{{Site: "/m/p/pool.go:20", Hits: 3, Tests: 1, Preempted: 3}, {Site: "/m/p/pool.go:40"}}
	if len(s.stats.Targets) != 2 || s.stats.Targets[0] != want[0] || s.stats.Targets[1] != want[1] {
		t.Errorf("targets %+v, want %+v", s.stats.Targets, want)
	}
	if b.stats.TargetHits != 3 || a.stats.TargetHits != 0 {
		t.Errorf("test hits %d, %d", b.stats.TargetHits, a.stats.TargetHits)
	}
	// No test executes a target: order and weights stay.
	d, e := mk("TestD"), mk("TestE")
	if got := aimFirst([]*target{d, e}); got[0] != d || d.weight != 1 {
		t.Errorf("without hits the order or weights changed")
	}
}

// A test that runs changed sites few other tests run gets more weight
// than one that runs only what every test runs, and in batched rounds
// that weight buys it schedules: ttlcache v3.4.0's Test_Cache_set (the
// one test running the changed Start and Stop together, about a second a
// schedule in its batches) ran 2 schedules while quick tests that run
// only the changed Item line every test runs ran 50 to 70.
func TestAimRareSitesInBatches(t *testing.T) {
	t.Parallel()
	start, stop, item := "/m/c/cache.go:644", "/m/c/cache.go:706", "/m/c/item.go:72"
	s := &search{opts: Options{Targets: []string{start, stop, item}}}
	s.startTargets()
	mk := func(name string, cost time.Duration, sites ...string) *target {
		tg := &target{name: name, weight: 1, cost: cost, stats: &TestStats{Test: name, Plain: "pass", Cost: cost}}
		hits := map[string]int{}
		for _, site := range sites {
			hits[site] = 5
		}
		s.plainHits(tg, rt.Result{TargetHits: hits})
		return tg
	}
	ms := time.Millisecond
	var ts []*target
	for i := range 16 {
		ts = append(ts, mk(fmt.Sprintf("TestItem%d", i), 20*ms, item))
	}
	startOnly := mk("TestStart", 20*ms, start, item)
	set := mk("TestSet", 1100*ms, start, stop, item)
	none := mk("TestElse", 20*ms)
	ts = append(ts, startOnly, none, set)
	got := aimFirst(ts)
	if got[len(got)-1] != none {
		t.Fatalf("the test that executes no target is not last")
	}
	quick := ts[0].weight
	if !(set.weight > startOnly.weight && startOnly.weight > quick && quick >= none.weight) {
		t.Fatalf("weights: set %.2f, start %.2f, item %.2f, none %.2f; want them in that order, the first three strictly",
			set.weight, startOnly.weight, quick, none.weight)
	}
	weights := make([]float64, len(got))
	costs := make([]time.Duration, len(got))
	at := -1
	for i, tg := range got {
		weights[i], costs[i] = tg.weight, tg.cost
		if tg == set {
			at = i
		}
	}
	credit := make([]time.Duration, len(got))
	runs := 0
	var spent, given time.Duration
	for per := 2; per <= maxRoundSchedules; per *= 2 {
		counts := roundCounts(costs, weights, credit, per)
		runs += counts[at]
		for i, n := range counts {
			spent += time.Duration(n) * costs[i]
		}
		given += time.Duration(per) * 20 * ms * time.Duration(len(got))
	}
	t.Logf("weights: set %.2f, start %.2f, item %.2f, none %.2f; the set test ran %d schedules", set.weight, startOnly.weight, quick, none.weight, runs)
	if runs < 10 {
		t.Errorf("the test that runs the rare changed sites ran %d schedules in six rounds, want at least 10", runs)
	}
	if spent > 2*given {
		t.Errorf("the rounds took %v, more than twice the %v of the even spread (per times the median cost, for each test)", spent, 2*given)
	}
}

// A test that runs only changed lines every test runs keeps, in
// batches, what the even spread gives it: otelmetric v1.39.0's
// constructor race is found by TestPeriodicReaderInstrumentationError (4
// ms a schedule; its targets are the constructor's lines every reader
// test runs), which ran 66 schedules in rounds spread evenly and 2 with
// parts by weight, its weight graded down to a quarter.
func TestAimFloorCommonSites(t *testing.T) {
	t.Parallel()
	ctor, collect := "/m/o/periodic_reader.go:132", "/m/o/periodic_reader.go:260"
	own := func(i int) []string { // an aggregation test's changed lines
		return []string{fmt.Sprintf("/m/o/agg%d.go:10", i), fmt.Sprintf("/m/o/agg%d.go:20", i), fmt.Sprintf("/m/o/agg%d.go:30", i)}
	}
	s := &search{opts: Options{Targets: []string{ctor, collect}}}
	for i := range 6 {
		s.opts.Targets = append(s.opts.Targets, own(i)...)
	}
	s.startTargets()
	mk := func(name string, cost time.Duration, sites ...string) *target {
		tg := &target{name: name, weight: 1, cost: cost, stats: &TestStats{Test: name, Plain: "pass", Cost: cost}}
		hits := map[string]int{}
		for _, site := range sites {
			hits[site] = 4
		}
		s.plainHits(tg, rt.Result{TargetHits: hits})
		return tg
	}
	ms := time.Millisecond
	var ts []*target
	for i := range 6 {
		ts = append(ts, mk(fmt.Sprintf("TestAggregate%d", i), 100*ms, own(i)...))
	}
	// Reader tests: the constructor's and collect's lines, nothing else.
	for i := range 10 {
		ts = append(ts, mk(fmt.Sprintf("TestReader%d", i), 100*ms, ctor, collect))
	}
	ierr := mk("TestInstrumentationError", 4*ms, ctor, collect)
	ts = append(ts, ierr)
	for i := range 4 {
		ts = append(ts, mk(fmt.Sprintf("TestElse%d", i), 100*ms))
	}
	got := aimFirst(ts)
	if agg := ts[0]; agg.weight <= ierr.weight {
		t.Fatalf("%s (changed lines of its own) weighs %.2f, not more than the common-site test's %.2f", agg.name, agg.weight, ierr.weight)
	}
	weights := make([]float64, len(got))
	costs := make([]time.Duration, len(got))
	at := -1
	for i, tg := range got {
		weights[i], costs[i] = tg.weight, tg.cost
		if tg == ierr {
			at = i
		}
	}
	runs := func(weights []float64, at int) int {
		credit := make([]time.Duration, len(costs))
		n := 1 // the first round's
		for per := 2; per <= 8; per *= 2 {
			n += roundCounts(costs, weights, credit, per)[at]
		}
		return n
	}
	evenly, graded := runs(ones(len(costs)), at), runs(weights, at)
	t.Logf("weight %.2f; %d schedules in four rounds by weight, %d spread evenly", ierr.weight, graded, evenly)
	if graded < evenly {
		t.Errorf("the common-site test ran %d schedules in four rounds by weight, fewer than the %d of the even spread", graded, evenly)
	}
	// The aim still gives the tests of rare changed lines more.
	if evenly, graded := runs(ones(len(costs)), 0), runs(weights, 0); graded <= evenly {
		t.Errorf("%s ran %d schedules by weight, not more than the %d of the even spread", got[0].name, graded, evenly)
	}
}

// Aimed at targets, the tests searched with processes of their own (the
// most weight) go before the batches: after them, ttlcache v3.4.0's
// Test_Cache_set, aimed most, got a slice of 0 s. The first search stage
// is the aimed test's; the context ends there, so nothing runs.
func TestAimedAloneBeforeBatches(t *testing.T) {
	t.Parallel()
	bin := buildFake(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var searches []string
	s := &search{opts: Options{Workers: 1, StepTimeout: time.Hour, Targets: []string{"/m/k/pool.go:20"}, Stage: func(e StageEvent) {
		if !e.Done && strings.HasPrefix(e.Name, "searching ") {
			searches = append(searches, e.Name)
			cancel()
		}
	}}, workDir: t.TempDir(), failures: map[string]*failure{}, counts: map[string]int{}, owners: map[string]*target{}}
	s.start = time.Now()
	s.deadline, s.hardStop = budgetEnds(s.start, time.Hour)
	s.startTargets()
	mk := func(name string, cost time.Duration) *target {
		return &target{bin: bin, name: name, weight: 1, cost: cost, pkg: rewrite.Package{ImportPath: "example.com/k", Dir: t.TempDir()},
			stats: &TestStats{Test: name, Plain: "pass", Cost: cost}}
	}
	slow1, slow2 := mk("TestSlow1", 30*time.Minute), mk("TestSlow2", 30*time.Minute)
	aimed := mk("TestAimed", 10*time.Millisecond)
	s.plainHits(aimed, rt.Result{TargetHits: map[string]int{"/m/k/pool.go:20": 3}})
	s.searchTests(ctx, []*target{slow1, slow2, aimed})
	if len(searches) == 0 || !strings.Contains(searches[0], "TestAimed") {
		t.Fatalf("search stages %q, want the aimed test's first", searches)
	}
	// Its slice leaves the batches their part: about a third of the hour.
	i := strings.LastIndex(searches[0], " for ")
	slice, err := time.ParseDuration(searches[0][i+len(" for "):])
	if i < 0 || err != nil || slice > 30*time.Minute || slice < 10*time.Minute {
		t.Errorf("%q: want a slice of about a third of the hour, the batches' part kept", searches[0])
	}
}
