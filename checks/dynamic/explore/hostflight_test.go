package explore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestHostedThroughMethod: the goroutine running the test's function is
// started by a dependency through a method it hands the function to
// (testdata/hostdep's grp/flight, singleflight's DoChan: go
// g.doCall(c, key, fn)). The dependency's synchronization is rewritten,
// so the scheduler chooses the order that fails and the finding replays.
// A count of schedules, not the time, bounds the search.
func TestHostedThroughMethod(t *testing.T) {
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, err := filepath.Abs("../testdata/hostdep")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := Run(ctx, Options{
		Dir: dir, Patterns: []string{"./flight"}, Budget: 5 * time.Minute,
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
		Kinds: map[string]checks.FailureKind{"TestLostAddFlight": checks.TestFailure},
		Msgs:  map[string][]string{"TestLostAddFlight": {"total = 1, want 11"}},
	}})
}
