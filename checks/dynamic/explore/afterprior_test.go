package explore

import (
	"context"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestReplaysAfterEarlierRuns: a failure that needs the state an earlier
// schedule of its test left in the process (rebootpool: the default pool
// its deferred Release closed; ants' TestRebootDefaultPool) does not
// replay alone in a fresh process, but does after that schedule: a
// finding, labelled so, whose schedule file carries the schedule run
// first and replays with the line it prints.
func TestReplaysAfterEarlierRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	ctx := context.Background()
	const test = "TestRebootDefaultPool"
	// A count, not a time: a process's second schedule is the first
	// that can fail.
	res, err := Run(ctx, Options{
		Dir: dir, Patterns: []string{"./rebootpool"}, Budget: 5 * time.Minute,
		Seed: 1, SchedulesDir: t.TempDir(), Schedules: 40, Build: build,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	checkFindings(ctx, t, res, findingCheck{dir: dir, build: build, Want: testkit.Want{
		Kinds: map[string]checks.FailureKind{test: checks.TestFailure},
		Sites: map[string]string{test: "rebootpool_test.go:8"},
	}})
	for _, f := range res.Findings {
		if f.AfterEarlier == nil || f.AfterEarlier.Schedules < 1 {
			t.Fatalf("%s: labels %q, want the earlier runs it needs", f.Test, f.Labels())
		}
		if f.Frequency == nil || f.Frequency.Every() {
			t.Errorf("%s: labels %q, want schedule-dependent", f.Test, f.Labels())
		}
		sched, err := ReadSchedule(f.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		if len(sched.Prior) != f.AfterEarlier.Schedules {
			t.Fatalf("%s: schedule carries %d earlier schedules, label says %d", f.Test, len(sched.Prior), f.AfterEarlier.Schedules)
		}
		// Alone it does not fail: the earlier runs are needed.
		rep, err := newReplayer(ctx, sched, f.Schedule, ReplayOptions{Dir: dir, Build: build})
		if err != nil {
			t.Fatal(err)
		}
		alone := *sched
		alone.Prior = nil
		rr, err := rep.run(ctx, &alone, "")
		rep.close()
		if err != nil {
			t.Fatal(err)
		}
		if rr.Outcome == Reproduced {
			t.Errorf("%s: its schedule reproduced alone, without the earlier runs", f.Test)
		}
	}
}
