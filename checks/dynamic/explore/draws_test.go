package explore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestRandomDrawsReplay: tests that start as many goroutines as
// math/rand (or math/rand/v2) draws (testdata/draws) fail in some orders
// of them; each finding replays in a fresh process because the replay
// draws what the search drew (the schedule's seed fixes the stream).
// A count of schedules, not the time, bounds the search.
func TestRandomDrawsReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, err := filepath.Abs("../testdata/draws")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := Run(ctx, Options{
		Dir: dir, Patterns: []string{"."}, Budget: 5 * time.Minute,
		Seed: 1, Workers: 1, Schedules: 10, SchedulesDir: t.TempDir(),
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
		Kinds: map[string]checks.FailureKind{"TestRandomFanOut": checks.TestFailure, "TestRandomFanOutV2": checks.TestFailure},
	}})
}
