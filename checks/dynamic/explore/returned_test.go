package explore

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
)

// TestReturnedReserve: the time kept for the replays of the failures
// found is given back to the search once a report went through them. A
// failure of a test that costs 59 minutes a process keeps the search of
// an hour's budget from going on (its replay); once reported, it
// keeps nothing, and the test is searched again (SkipTest asked: no
// process runs), maxPasses times. The caller's KeepFor stays counted for
// reported failures too. Counted durations: no time passes in the test
// that matters. Fails without the reserve's untold filter (no pass, the costly
// failure's replays kept).
func TestReturnedReserve(t *testing.T) {
	t.Parallel()
	asked := 0
	keep := 0
	s := &search{opts: Options{Budget: time.Hour, Workers: 1,
		SkipTest: func(TestRef) bool { asked++; return true },
		KeepFor:  func(causes []CauseCost) time.Duration { keep = len(causes); return time.Minute }},
		failures: map[string]*failure{}, owners: map[string]*target{}, workDir: t.TempDir()}
	s.deadline, s.hardStop = budgetEnds(time.Now(), time.Hour)
	tg := &target{pkg: rewrite.Package{ImportPath: "example.com/p", Dir: t.TempDir()}, name: "TestSlow",
		bin: "/nonexistent/p.test", cost: 59 * time.Minute, stats: &TestStats{Test: "TestSlow", Schedules: 2, Failures: 1, Plain: "pass"}}
	k := "TestSlow|x"
	s.order = []string{k}
	s.owners[k] = tg
	s.failures[k] = &failure{kind: checks.TestFailure, message: "x_test.go:9: lost", site: "x_test.go:9"}

	before := s.shrinkReserve()
	res, err := s.searchReturned(context.Background(), []*target{tg}, &Result{})
	if err != nil || asked != 0 {
		t.Fatalf("untold failure: %d searches after the first (err %v), want none: its replays keep %v", asked, err, before)
	}
	s.reported = map[string]bool{k: true}
	// A second failure, of a cheap test, found after the report: its
	// replays alone are kept.
	k2 := "TestCheap|y"
	s.order = append(s.order, k2)
	s.owners[k2] = &target{name: "TestCheap", cost: time.Second, stats: &TestStats{Test: "TestCheap", Schedules: 2, Failures: 1}}
	s.failures[k2] = &failure{kind: checks.Panic, message: "boom", site: "y.go:3"}
	after := s.shrinkReserve()
	if after >= before/4 || keep != 2 {
		t.Errorf("reserve %v once the costly one was reported (KeepFor of %d causes), %v before; want far less, KeepFor of both", after, keep, before)
	}
	s.reported[k2] = true
	res, err = s.searchReturned(context.Background(), []*target{tg}, res)
	if err != nil || asked != maxPasses || s.pass != maxPasses {
		t.Errorf("reported failure: %d searches after the first, pass %d (err %v); want %d", asked, s.pass, err, maxPasses)
	}
	if res.Stats.Tests == nil && len(s.stats.Tests) > 0 {
		t.Errorf("stats not finished")
	}
	// Under a count of schedules the search is bounded otherwise.
	asked = 0
	s.opts.Schedules = 5
	if _, err := s.searchReturned(context.Background(), []*target{tg}, &Result{}); err != nil || asked != 0 {
		t.Errorf("with a count: %d searches after the first, want none", asked)
	}
}

// returnedEnough wants a tenth of the budget and two seconds.
func TestReturnedEnough(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		left, budget time.Duration
		want         bool
	}{
		{50 * time.Second, 2 * time.Minute, true},
		{11 * time.Second, 2 * time.Minute, false},
		{2 * time.Second, 10 * time.Second, true},
		{1900 * time.Millisecond, 10 * time.Second, false},
		{-time.Second, time.Minute, false},
	} {
		if got := returnedEnough(c.left, c.budget); got != c.want {
			t.Errorf("returnedEnough(%v, %v) = %v, want %v", c.left, c.budget, got, c.want)
		}
	}
}

// TestReturnedFitLeavesOutTheCostliest: the time given back is searched by
// the tests whose late failure's replay leaves it worth a search, in the
// order given: a 5 s test whose replay the reserve would keep for is left
// out of 14 s (with it, 5.1 s would be left: under a tenth of the
// budget), the fast ones searched; with 30 s, all of them.
func TestReturnedFitLeavesOutTheCostliest(t *testing.T) {
	t.Parallel()
	s := &search{opts: Options{Budget: time.Minute}, failures: map[string]*failure{}, owners: map[string]*target{}}
	slow := &target{name: "TestSlow", cost: 5 * time.Second, stats: &TestStats{}}
	a := &target{name: "TestA", cost: 100 * time.Millisecond, stats: &TestStats{}}
	c := &target{name: "TestC", cost: 200 * time.Millisecond, stats: &TestStats{}}
	names := func(ts []*target) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.name)
		}
		return out
	}
	ts := []*target{slow, c, a}
	s.deadline = time.Now().Add(14 * time.Second)
	fit, left := s.returnedFit(ts, ts)
	if got, want := names(fit), []string{"TestC", "TestA"}; !slices.Equal(got, want) {
		t.Errorf("with 14 s left: %v searched again, want %v", got, want)
	}
	if !returnedEnough(left, s.opts.Budget) {
		t.Errorf("with 14 s left: %v to search, not enough", left)
	}
	s.deadline = time.Now().Add(30 * time.Second)
	fit, _ = s.returnedFit(ts, ts)
	if got, want := names(fit), []string{"TestSlow", "TestC", "TestA"}; !slices.Equal(got, want) {
		t.Errorf("with 30 s left: %v searched again, want %v", got, want)
	}
	s.deadline = time.Now().Add(5 * time.Second)
	if fit, _ = s.returnedFit(ts, ts); len(fit) != 0 {
		t.Errorf("with 5 s left: %v searched again, want none", names(fit))
	}
}
