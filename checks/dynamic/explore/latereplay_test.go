package explore

import (
	"os"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestLateFailureKeepsItsReplay, on a fake clock: a failure found while
// other processes of its test still run ends their schedules once its
// replays would no longer fit before the end of the budget, and at that
// moment both replays still fit, at what fresh processes take on a
// loaded machine (2 s here). Before, the other processes ran to the end
// of the test's slice, planned before the failure (the recall
// yardstick's condsignalnolock and ctxafterfuncstop: "no time was left in
// the budget to replay"). Fails without keepReplayTime.
func TestLateFailureKeepsItsReplay(t *testing.T) {
	t0 := time.Date(2026, 11, 30, 21, 0, 0, 0, time.UTC)
	now := t0
	defer func(c func() time.Time) { clock = c }(clock)
	clock = func() time.Time { return now }

	s := &search{opts: Options{Budget: 10 * time.Second}, workDir: t.TempDir(), failures: map[string]*failure{}, owners: map[string]*target{}}
	s.deadline, s.hardStop = budgetEnds(t0, s.opts.Budget)
	s.fresh.add(2 * time.Second)
	tg := &target{pkg: rewrite.Package{ImportPath: "example.com/k"}, name: "TestLatch", cost: 300 * time.Millisecond, stats: &TestStats{}}
	stopped := func() bool {
		_, err := os.Stat(s.stopFile(tg))
		return err == nil
	}
	pass := rt.Result{Outcome: "pass", Elapsed: 100 * time.Millisecond}
	fail := rt.Result{Outcome: string(checks.Deadlock), Elapsed: 100 * time.Millisecond}

	now = t0.Add(9 * time.Second)
	s.counted(tg, pass)
	if stopped() {
		t.Fatal("no failure: the test's processes were stopped")
	}
	now = t0.Add(2 * time.Second)
	s.counted(tg, fail)
	if stopped() {
		t.Fatal("a failure with 8s left: the other processes were stopped, its replays fit")
	}
	// Another process's schedules go on; the one after which the
	// replays would no longer fit stops them.
	for now = t0.Add(2 * time.Second); !stopped() && now.Before(s.hardStop); now = now.Add(100 * time.Millisecond) {
		s.counted(tg, pass)
	}
	if !stopped() {
		t.Fatal("the test's processes were never stopped for the failure's replays")
	}
	per := replayCost(tg.cost, fail.Elapsed, s.fresh.recent())
	if left, need := s.hardStop.Sub(now), replayTries*per; left < need {
		t.Errorf("stopped with %v left, want at least the failure's %d replays, %v", left, replayTries, need)
	}
}

// TestShrinkReserveFreshStartup: once a failure is found, what the search
// keeps after it counts each replay's fresh process at what the latest
// processes took outside their schedules (3 s here, a loaded machine),
// not processStartup: at least its first replay. Fails with
// processStartup in its place.
func TestShrinkReserveFreshStartup(t *testing.T) {
	s := &search{opts: Options{Budget: 10 * time.Second}, failures: map[string]*failure{}, owners: map[string]*target{}}
	tg := &target{name: "TestClose", cost: 200 * time.Millisecond, stats: &TestStats{Schedules: 3, Failures: 1}}
	s.order = []string{"k"}
	s.owners["k"], s.failures["k"] = tg, &failure{kind: checks.Panic, message: "send on closed channel", site: "k.go:9", elapsed: 50 * time.Millisecond}
	s.fresh.add(3 * time.Second)
	if got, want := s.shrinkReserve(), replayCost(tg.cost, 50*time.Millisecond, 3*time.Second); got < want {
		t.Errorf("reserve %v after a failure, want at least its first replay at 3s a fresh process, %v", got, want)
	}
}
