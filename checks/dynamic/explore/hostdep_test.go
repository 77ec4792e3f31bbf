package explore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestHostedGoroutines: a test whose goroutines a dependency starts
// (testdata/hostdep's grp, errgroup's shape) fails in one order of them.
// The dependency's synchronization is rewritten, so the scheduler chooses
// that order, and the finding replays with its schedule; the correct test
// beside it gives nothing. A count of schedules, not the time, bounds the
// search.
func TestHostedGoroutines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, err := filepath.Abs("../testdata/hostdep")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := Run(ctx, Options{
		Dir: dir, Patterns: []string{"./count"}, Budget: 5 * time.Minute,
		Seed: 1, Workers: 1, Schedules: 30, SchedulesDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	for _, ts := range res.Stats.Tests {
		t.Logf("%s: %d schedules, %d failing", ts.Test, ts.Schedules, ts.Failures)
	}
	checkFindings(ctx, t, res, findingCheck{dir: dir, Want: testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestLostAdd": checks.TestFailure, "TestLocked": ""},
		Msgs:  map[string][]string{"TestLostAdd": {"total = 1, want 11"}},
	}})
}
