package explore

import (
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
