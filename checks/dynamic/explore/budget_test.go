package explore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// The search ends early enough that what runs after it fits: the end of
// the budget (hardStop, where the watchdog kills what still runs) is the
// build's end plus the budget, and the search's own end is at most 5% of
// the budget before it, a second when that fits.
func TestBudgetEnds(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		budget, slack time.Duration
	}{
		{5 * time.Second, 250 * time.Millisecond},
		{30 * time.Second, time.Second},
		{60 * time.Second, 1200 * time.Millisecond},
		{10 * time.Minute, 12 * time.Second},
	} {
		deadline, hard := budgetEnds(start, c.budget)
		if want := start.Add(c.budget); !hard.Equal(want) {
			t.Errorf("budget %v: hard stop %v after the build, want the budget", c.budget, hard.Sub(start))
		}
		if got := hard.Sub(deadline); got != c.slack {
			t.Errorf("budget %v: the search ends %v before the budget, want %v", c.budget, got, c.slack)
		}
		if got := hard.Sub(deadline); got > c.budget/20 {
			t.Errorf("budget %v: slack %v is more than 5%% of it", c.budget, got)
		}
	}
}

// Each item still to run gets its fair part of what is left until the
// end: the parts never add up past it, and nothing is left to share once
// it passed.
func TestFairShare(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 29, 3, 0, 0, 0, time.UTC)
	end := now.Add(30 * time.Second)
	var sum time.Duration
	at := now
	for i := 0; i < 4; i++ {
		part := fairShare(at, end, 4-i)
		if part != 7500*time.Millisecond {
			t.Errorf("item %d: part %v, want 7.5s (each used all of its part)", i, part)
		}
		sum += part
		at = at.Add(part)
	}
	if sum != 30*time.Second {
		t.Errorf("parts add up to %v, want the 30s left", sum)
	}
	// An item that used less leaves the rest to the others.
	if got := fairShare(now.Add(time.Second), end, 1); got != 29*time.Second {
		t.Errorf("last item: %v, want all that is left (29s)", got)
	}
	if got := fairShare(end.Add(time.Second), end, 3); got != 0 {
		t.Errorf("past the end: %v, want 0", got)
	}
	if got := fairShare(now, end, 0); got != 0 {
		t.Errorf("no items: %v, want 0", got)
	}
}

// The time kept after the search grows with the failures found, by what
// one fresh replay of each costs (its process's start and exit included),
// within its bounds.
func TestPostReserve(t *testing.T) {
	t.Parallel()
	least, most := 3*time.Second, 15*time.Second
	if got := postReserve(least, most, nil, nil); got != least {
		t.Errorf("no failures: %v, want %v", got, least)
	}
	one := (replayTries + plainRuns) * 400 * time.Millisecond
	costs := []time.Duration{400 * time.Millisecond}
	if got := postReserve(0, most, costs, nil); got != one {
		t.Errorf("one failure of a 400ms replay: %v, want %v", got, one)
	}
	for len(costs) < 15 {
		costs = append(costs, 400*time.Millisecond)
	}
	if got := postReserve(least, most, costs, nil); got != most {
		t.Errorf("15 failures: %v, want the most, %v", got, most)
	}
	// Past the most, the first replay of each is still kept: a finding
	// that did not replay is not reported.
	for len(costs) < 60 {
		costs = append(costs, 400*time.Millisecond)
	}
	if got, want := postReserve(least, most, costs, nil), 60*400*time.Millisecond; got != want {
		t.Errorf("60 failures: %v, want their first replays, %v", got, want)
	}
	if got, want := postReserve(0, most, nil, costs[:1]), replayTries*400*time.Millisecond; got != want {
		t.Errorf("one failure whose test ran under plain go test already: %v, want %v (its replays)", got, want)
	}
	costs = costs[:5]
	if got, want := postReserve(least, most, costs, nil), 5*one; got != want {
		t.Errorf("5 failures: %v, want %v", got, want)
	}
}

// A test's sleeps and timers take real time under plain go test though
// none under control: its plain run's timeout is judged against them
// (chanx's TestLen: 2 s of sleeps, 0.1 s under control, a run cut at
// 2.97 s was told as "plain go test fails too: test timed out").
func TestPlainCostCountsSleeps(t *testing.T) {
	t.Parallel()
	tg := &target{cost: time.Minute, virtual: 40 * time.Minute}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Hour))
	defer cancel()
	if _, ok, full := plainTimeout(ctx, 2*time.Hour, tg.plainCost()); !ok || full {
		t.Errorf("an hour left for a test that sleeps 40m: ok %v, full %v; want a run, not a full one", ok, full)
	}
}

// A plain go test run that must end by a deadline gets a -test.timeout
// that ends before it; none (not run: the budget ran out) when what is
// left is less than one run; and a timeout shorter than twice the test's
// cost and a second is not a full one (a run cut short is no hang).
func TestPlainTimeout(t *testing.T) {
	t.Parallel()
	if got, ok, full := plainTimeout(context.Background(), 10*time.Second, time.Second); got != 10*time.Second || !ok || !full {
		t.Errorf("no deadline: %v, %v, %v; want 10s, true, true", got, ok, full)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Hour))
	defer cancel()
	if got, ok, full := plainTimeout(ctx, 10*time.Second, time.Second); got != 10*time.Second || !ok || !full {
		t.Errorf("an hour left: %v, %v, %v; want 10s, true, true", got, ok, full)
	}
	if got, ok, full := plainTimeout(ctx, 2*time.Hour, 40*time.Minute); got >= time.Hour || !ok || full {
		t.Errorf("an hour left for a 40m test: %v, %v, %v; want less than 1h, true, false", got, ok, full)
	}
	ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if got, ok, _ := plainTimeout(ctx, 10*time.Second, 0); ok {
		t.Errorf("past the deadline: %v, %v; want not run", got, ok)
	}
}

// With no time left, plain go test is not run for a finding's label, and
// the label says the budget ran out.
func TestPlainForLabelsOutOfBudget(t *testing.T) {
	t.Parallel()
	s, tg, _ := replayCheckSearch(t)
	built := make(chan struct{})
	close(built)
	s.plainBins = map[string]*plainBin{tg.pkg.ImportPath: {bin: tg.bin, done: built}}
	out := s.plainForLabels(context.Background(), tg, nil, time.Now().Add(-time.Second))
	if !errors.Is(out.err, errBudgetOut) || len(out.runs) != 0 {
		t.Fatalf("plainForLabels past its end = %v, %d runs; want errBudgetOut, none", out.err, len(out.runs))
	}
	if got := out.label(&failure{}, tg.pkg.Dir).Label(); got != "plain go test not run: the budget ran out" {
		t.Errorf("label %q", got)
	}
}

// A failure late in a long schedule keeps time for its replays by that
// schedule's run time, not its test's (shorter) cost: tickerstopsignal's
// leak, 4000 decisions in, had "no time left to replay it alone".
func TestShrinkReserveLongSchedule(t *testing.T) {
	t.Parallel()
	s := &search{opts: Options{Budget: 10 * time.Second}, failures: map[string]*failure{}, owners: map[string]*target{}}
	tg := &target{name: "TestPoller", cost: 50 * time.Millisecond, stats: &TestStats{}}
	s.order = []string{"k"}
	s.owners["k"] = tg
	s.failures["k"] = &failure{elapsed: 3 * time.Second}
	if got, want := s.shrinkReserve(), 3*time.Second+processStartup; got < want {
		t.Errorf("reserve %v, want at least the schedule's first replay, %v", got, want)
	}
}

// A failure after earlier schedules of its process keeps time for one
// replay more, after the last of them (replaysAfter): ants'
// TestRebootDefaultPool's found no time left for it.
func TestShrinkReserveAfterEarlier(t *testing.T) {
	t.Parallel()
	mk := func(prior []rt.Result) *search {
		s := &search{opts: Options{Budget: 100 * time.Second}, failures: map[string]*failure{}, owners: map[string]*target{}}
		s.order = []string{"k"}
		s.owners["k"] = &target{name: "TestReboot", cost: 2 * time.Second, stats: &TestStats{}}
		s.failures["k"] = &failure{elapsed: 2 * time.Second, prior: prior}
		return s
	}
	alone, after := mk(nil), mk([]rt.Result{{Elapsed: 2 * time.Second}})
	if got, want := after.shrinkReserve()-alone.shrinkReserve(), 2*time.Second+processStartup; got < want {
		t.Errorf("reserve after an earlier schedule minus alone = %v, want at least one process of two schedules, %v", got, want)
	}
}

// Options.KeepAfter is left for the caller once a failure is found (the
// pull-request job's search on the base commit), and only then.
func TestShrinkReserveKeepAfter(t *testing.T) {
	t.Parallel()
	mk := func(keep time.Duration) *search {
		return &search{opts: Options{Budget: 100 * time.Second, KeepAfter: keep}, failures: map[string]*failure{}, owners: map[string]*target{}}
	}
	s, without := mk(25*time.Second), mk(0)
	if got := s.shrinkReserve(); got >= 25*time.Second {
		t.Errorf("reserve %v with no failure, want less than KeepAfter", got)
	}
	tg := &target{name: "TestX", cost: 50 * time.Millisecond, stats: &TestStats{}}
	for _, x := range []*search{s, without} {
		x.order = []string{"k"}
		x.owners["k"] = tg
		x.failures["k"] = &failure{}
	}
	if got, want := s.shrinkReserve()-without.shrinkReserve(), 25*time.Second; got != want {
		t.Errorf("reserve with KeepAfter minus without = %v, want %v", got, want)
	}
}

// The search on the base commit gets what its replays left of its budget.
func TestBaseSearchBudget(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		budget, replayed time.Duration
		n                int
		want             time.Duration
	}{
		{30 * time.Second, 10 * time.Second, 2, 10 * time.Second},
		{30 * time.Second, 0, 1, 30 * time.Second},
		{30 * time.Second, 40 * time.Second, 1, time.Second},
	} {
		if got := baseSearchBudget(c.budget, c.replayed, c.n); got != c.want {
			t.Errorf("baseSearchBudget(%v, %v, %d) = %v, want %v", c.budget, c.replayed, c.n, got, c.want)
		}
	}
}

// A stopped unperturbed run's next round gets at least twice what its last
// run took, not only twice its slot: ants' slow tests, given 0.6 s in the
// first pass, ran 1.4 s each (a run stopped in a short slot is killed a
// second past its stop), and twice the slot, 1.2 s, was hardly more than
// that; round after round each ran ~1.6 s and none finished.
func TestRetrySlot(t *testing.T) {
	t.Parallel()
	const s, ms = time.Second, time.Millisecond
	for _, c := range []struct {
		name                         string
		slot, ran, fair, least, left time.Duration
		want                         time.Duration
	}{
		{"twice what it ran", 600 * ms, 1400 * ms, 300 * ms, 0, 30 * s, 2800 * ms},
		{"twice its slot when longer", 3 * s, 1400 * ms, 300 * ms, 0, 30 * s, 6 * s},
		{"its fair part when more", 600 * ms, 1400 * ms, 5 * s, 0, 30 * s, 5 * s},
		{"the full watchdog when stuck", 600 * ms, 1400 * ms, 300 * ms, 6 * s, 30 * s, 6 * s},
		{"no more than what is left", 600 * ms, 1400 * ms, 300 * ms, 0, 2 * s, 2 * s},
		{"not run when what is left is no more than it ran", 600 * ms, 1400 * ms, 300 * ms, 0, 1400 * ms, 0},
	} {
		tg := &target{slot: c.slot, ran: c.ran}
		if got := tg.retrySlot(c.fair, c.least, c.left); got != c.want {
			t.Errorf("%s: slot %v, ran %v: retrySlot(%v, %v, %v) = %v, want %v", c.name, c.slot, c.ran, c.fair, c.least, c.left, got, c.want)
		}
	}
}

// TestSearchReserveLateFailure: while the last test is searched, the
// search keeps what one failure it may find in its last moments needs:
// a fresh replay of its test, at what fresh processes take now
// (injected: 3 s outside their schedules), so that the replay ends
// within the budget instead of past it (conc's and ratelimit's late
// findings took -budget 60s to 63.6 s and 64.2 s). A test that has a
// failure already adds nothing: that cause is kept for.
func TestSearchReserveLateFailure(t *testing.T) {
	t.Parallel()
	s := &search{opts: Options{Budget: time.Minute}, failures: map[string]*failure{}, owners: map[string]*target{}}
	tg := &target{name: "TestContextPool", cost: 2 * time.Second, stats: &TestStats{}}
	s.fresh.add(3 * time.Second)
	want := 2*time.Second + 3*time.Second
	left := 10 * time.Second
	slice := testSlice(left, s.shrinkReserve(), s.searchReserve(tg), []float64{1}, []time.Duration{tg.cost})
	if after := left - slice; after < want {
		t.Errorf("the last test's slice leaves %v after it, want at least its failure's replay, %v", after, want)
	}
	if got := s.shrinkReserve(); got >= want {
		t.Errorf("shrinkReserve with no failure = %v, want less than the late failure's replay (%v): searchReserve adds it", got, want)
	}
	// A test in the middle of many keeps its share: the late failure's
	// replays bound only the end of its slice.
	shares, costs := []float64{0.1, 0.9}, []time.Duration{tg.cost, tg.cost}
	if got, want := testSlice(time.Minute, s.shrinkReserve(), s.searchReserve(tg), shares, costs), searchSlice(time.Minute-s.shrinkReserve(), shares, costs); got != want {
		t.Errorf("the first of two tests gets %v, want its share, %v", got, want)
	}
	s.order = []string{"k"}
	s.owners["k"] = tg
	s.failures["k"] = &failure{elapsed: 10 * time.Millisecond}
	if got, base := s.searchReserve(tg), s.shrinkReserve(); got != base {
		t.Errorf("searchReserve of a test with a failure = %v, want shrinkReserve's %v", got, base)
	}
}

// TestRoundsEnd: the stopped tests' rounds end at two thirds of the
// budget only when a test can be searched and its search would have time
// after that; when what it keeps after it takes the whole last third
// (rill at -budget 60s: "searching 31 tests in batches for 0s"), the
// rounds go on to what the failures found leave.
func TestRoundsEnd(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	end, cut := t0.Add(44*time.Second), t0.Add(40*time.Second)
	if got := roundsEnd(end, cut, t0.Add(50*time.Second), true); !got.Equal(cut) {
		t.Errorf("search with time after the cut: rounds end at %v, want the cut", got.Sub(t0))
	}
	if got := roundsEnd(end, cut, t0.Add(38*time.Second), true); !got.Equal(end) {
		t.Errorf("search with no time after the cut: rounds end at %v, want %v", got.Sub(t0), end.Sub(t0))
	}
	if got := roundsEnd(end, cut, t0.Add(50*time.Second), false); !got.Equal(end) {
		t.Errorf("nothing to search: rounds end at %v, want %v", got.Sub(t0), end.Sub(t0))
	}
	if got := roundsEnd(t0.Add(30*time.Second), cut, t0.Add(50*time.Second), true); !got.Equal(t0.Add(30 * time.Second)) {
		t.Errorf("failures needing more than the cut leaves: rounds end at %v, want 30s", got.Sub(t0))
	}
}

// TestSearchReserveSlowTestAmongMany: among several tests with no failure
// yet, one whose schedule takes more than half of what is left (pond's
// TestPoolSubmitWhileStoppingHasNoRace, 25 s unperturbed) is not kept for:
// the batches get the rest ("searching 64 tests in batches for 0s" with
// 34 s left before). Searched alone, its replay is still kept for.
func TestSearchReserveSlowTestAmongMany(t *testing.T) {
	t.Parallel()
	s := &search{opts: Options{Budget: time.Minute}, failures: map[string]*failure{}, owners: map[string]*target{}}
	s.deadline = time.Now().Add(34 * time.Second)
	slow := &target{name: "TestSlow", cost: 25 * time.Second, stats: &TestStats{}}
	fast := &target{name: "TestFast", cost: 100 * time.Millisecond, stats: &TestStats{}}
	if got := s.searchReserve(slow, fast); got >= 10*time.Second {
		t.Errorf("searchReserve of a slow and a fast test with 34 s left = %v, want the fast test's replay, not the slow one's 25 s", got)
	}
	if got := s.searchReserve(slow); got < slow.cost {
		t.Errorf("searchReserve of the slow test alone = %v, want at least its cost %v", got, slow.cost)
	}
	s.deadline = time.Now().Add(5 * time.Minute)
	if got := s.searchReserve(slow, fast); got < slow.cost {
		t.Errorf("searchReserve with 5 min left = %v, want at least the slow test's cost %v", got, slow.cost)
	}
}
