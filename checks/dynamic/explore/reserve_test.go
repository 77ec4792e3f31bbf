package explore

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestShrinkReserveCauses: what the search keeps for the failures found
// counts what the report replays, once per cause. gocron v1.15.0 (90s of
// search, 1s tests) had 12 tests leak the same executor goroutine and 7
// unperturbed failures plain go test told as the tool's doing; the reserve
// counted 19 replays of two runs each and the search got nothing ("in
// batches for -4.7s"). Fails without reserveKey and toolsDoing: the
// reserve is 49.4s.
func TestShrinkReserveCauses(t *testing.T) {
	t.Parallel()
	s := &search{opts: Options{Budget: 90 * time.Second}, failures: map[string]*failure{}, owners: map[string]*target{}}
	add := func(tg *target, f *failure) {
		k := tg.name + "|" + f.key()
		s.order = append(s.order, k)
		s.owners[k] = tg
		s.failures[k] = f
	}
	for i := range 12 {
		tg := &target{name: fmt.Sprintf("TestLeak%d", i), cost: time.Second, stats: &TestStats{Schedules: 2, Failures: 1}}
		add(tg, &failure{kind: checks.Leak, message: rt.LeakBlocked + ": g1 blocked on select at executor.go:46", site: "executor.go:46",
			goroutines: []checks.Goroutine{{ID: "g1", State: "select", Site: "executor.go:46"}, {ID: fmt.Sprint("g", i+2), State: "chan send", Site: "scheduler_test.go:45"}}})
	}
	for i := range 7 {
		f := &failure{kind: checks.Panic, message: "sync: negative WaitGroup counter", site: fmt.Sprintf("scheduler.go:%d", 100+i)}
		tg := &target{name: fmt.Sprintf("TestTool%d", i), cost: time.Second, stats: &TestStats{Schedules: 1, Failures: 1},
			plainKeys: map[string]bool{f.key(): true}, plainGo: &plainOutcome{}, plainSame: map[string]bool{}}
		add(tg, f)
	}
	got := s.shrinkReserve()
	least := min(shrinkTime, s.opts.Budget/10)
	want := max((replayTries+plainRuns)*time.Second+2*processStartup, least) // one cause, one test's replays and plain runs
	if got != want {
		t.Errorf("reserve %v for one cause of 12 leaks and 7 failures of the tool, want %v", got, want)
	}
	// A second cause counts; a schedule that passed makes a tool's
	// failure a finding again, replayed.
	tg := &target{name: "TestOther", cost: time.Second, stats: &TestStats{Schedules: 1, Failures: 1}}
	add(tg, &failure{kind: checks.TestFailure, message: "scheduler_test.go:1836: Not equal", site: "scheduler_test.go:1836"})
	two := s.shrinkReserve()
	s.owners[s.order[12]].stats.Schedules = 5
	three := s.shrinkReserve()
	if two <= want || three <= two {
		t.Errorf("reserve %v, then %v with a second cause, then %v with a failure of the tool now a finding; want each more", got, two, three)
	}
}

// With less left than the failures found need, the batches get nothing,
// and the log says so with no negative duration.
func TestBatchesNoTimeLeft(t *testing.T) {
	t.Parallel()
	if _, _, part := splitBatched(-5*time.Second, []*target{
		{name: "A", weight: 1, cost: time.Millisecond, stats: &TestStats{Plain: "pass"}},
		{name: "B", weight: 1, cost: time.Millisecond, stats: &TestStats{Plain: "pass"}},
	}); part != 0 {
		t.Errorf("part %v with -5s left, want 0", part)
	}
	var said []string
	s := &search{opts: Options{Budget: 10 * time.Second, Stage: func(ev StageEvent) {
		if !ev.Done {
			said = append(said, ev.Name)
		}
	}}, failures: map[string]*failure{}, owners: map[string]*target{}}
	s.deadline = time.Now().Add(time.Hour)
	s.searchBatches(t.Context(), nil, time.Now().Add(-5*time.Second))
	if len(said) != 1 || !strings.HasSuffix(said[0], " for 0s") {
		t.Errorf("stages %q, want one searching for 0s", said)
	}
}

// TestReplayKeepsLaterCauses: once a fresh replay reproduced a failure,
// its second try (its rate) runs only when the first replays of the
// causes after it still fit before the hard stop: the search keeps one
// replay a cause (postReserve), and a finding not replayed is not
// reported. With time for both, both run.
func TestReplayKeepsLaterCauses(t *testing.T) {
	// In parallel: its time is the fake's replays sleeping (no CPU), and
	// it shares no state with other tests (its own search and temporary
	// directories, no environment).
	t.Parallel()
	f := &failure{kind: checks.Leak, message: "leak: goroutines still running after the test returned", site: "/src/k/k_test.go:70",
		seed: 1, strategy: "random", decisions: []rt.Decision{{G: 0, Site: "x.go:1", Op: "go"}}}
	for _, c := range []struct {
		keep  time.Duration
		tries int
	}{{0, replayTries}, {10 * time.Minute, 1}} {
		s, tg, fd := fakeFinding(t, "TestLongLeak", f)
		s.hardStop = time.Now().Add(10 * time.Minute)
		s.replayKeep = c.keep
		before := s.fresh.n
		if why, unchecked := s.replaysAlone(context.Background(), tg, fd, f); why != "" || unchecked || fd.Replays != nil {
			t.Fatalf("keep %v: replaysAlone = %q, %v, %+v; want reproduced on every try run", c.keep, why, unchecked, fd.Replays)
		}
		if got := s.fresh.n - before; got != c.tries {
			t.Errorf("keep %v of the 10m left: %d fresh replays, want %d", c.keep, got, c.tries)
		}
	}
}

// TestReserveRillLeaks: four leaks found in unperturbed runs, each test
// measured alone (its cost holds its process's start and exit) on a
// loaded machine (fresh processes take 3 s outside their schedules), keep
// what one replay of each takes and, up to a quarter of the budget, its
// second try and plain go test runs: rill v0.8.1 kept 44 s of -budget 60s
// (every try, each counting the process start twice), and the search got
// nothing after the unperturbed runs.
func TestReserveRillLeaks(t *testing.T) {
	t.Parallel()
	s := &search{opts: Options{Budget: time.Minute}, failures: map[string]*failure{}, owners: map[string]*target{}}
	for i, c := range []time.Duration{2300 * time.Millisecond, 3000 * time.Millisecond, 900 * time.Millisecond, 1500 * time.Millisecond} {
		tg := &target{name: fmt.Sprintf("TestLeak%d", i), cost: c, stats: &TestStats{Schedules: 1, Failures: 1}}
		k := tg.name + "|leak"
		s.order = append(s.order, k)
		s.owners[k] = tg
		// The schedule itself: the cost less its process's 3 s outside.
		s.failures[k] = &failure{kind: checks.TestFailure, message: "leak", site: fmt.Sprintf("k.go:%d", i), elapsed: max(c-3*time.Second, 100*time.Millisecond)}
	}
	for range freshKeep {
		s.fresh.add(3 * time.Second)
	}
	firsts := 4 * 3100 * time.Millisecond // replayCost of each: its schedule and 3 s, more than its cost
	got := s.shrinkReserve()
	if got != s.opts.Budget/4 {
		t.Errorf("reserve %v, want a quarter of the budget, %v (the first replays take %v)", got, s.opts.Budget/4, firsts)
	}
	// Twelve such causes: their first replays are kept past the quarter.
	for i := 4; i < 12; i++ {
		tg := &target{name: fmt.Sprintf("TestLeak%d", i), cost: time.Second, stats: &TestStats{Schedules: 1, Failures: 1}}
		k := tg.name + "|leak"
		s.order = append(s.order, k)
		s.owners[k] = tg
		s.failures[k] = &failure{kind: checks.TestFailure, message: "leak", site: fmt.Sprintf("k.go:%d", i), elapsed: 100 * time.Millisecond}
	}
	if got, want := s.shrinkReserve(), firsts+8*3100*time.Millisecond; got != want {
		t.Errorf("reserve of 12 causes %v, want their first replays, %v", got, want)
	}
}

// TestReserveTellsByLength (issue 23, bigcache): the time the search keeps
// after it prices telling each failure by its length. bigcache's two
// leaks of 54,083 and 61,158 decisions took 10-12 s to tell after the
// search at load 20-35, which the reserve did not hold: the first replay
// found no time left. A failure of 60,000 decisions keeps 60,000
// decisions' telling more than one of 10 with the same test and cost.
// Fails without tellReserve (the same reserve).
func TestReserveTellsByLength(t *testing.T) {
	t.Parallel()
	reserve := func(decisions int) time.Duration {
		s := &search{opts: Options{Budget: time.Minute}, failures: map[string]*failure{}, owners: map[string]*target{}}
		tg := &target{name: "TestAppendRandomly", cost: 3 * time.Second, stats: &TestStats{Schedules: 3, Failures: 3}}
		f := &failure{kind: checks.Leak, message: rt.LeakRunning + ": g1 running at RWMutex.Lock at shard.go:293", site: "shard.go:293",
			decisions: make([]rt.Decision, decisions), elapsed: 3 * time.Second}
		k := tg.name + "|" + f.key()
		s.order, s.owners[k], s.failures[k] = []string{k}, tg, f
		return s.shrinkReserve()
	}
	short, long := reserve(10), reserve(60000)
	if want := short + (60000-10)*tellPerDecision; long != want || long-short < time.Second {
		t.Errorf("reserve %v for a failure of 10 decisions, %v for one of 60,000; want %v (at least a second more)", short, long, want)
	}
}
