package explore

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// searchCounted searches the packages patterns of testdata module rel
// (relative to this package) with one worker and seed 1, bounded by a
// count of schedules per test, not the time (the budget only stops a
// machine that cannot run them), and logs its notes and per-test counts.
// It returns the module's directory for checkFindings.
func searchCounted(t *testing.T, rel string, patterns []string, schedules int) (string, *Result) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Options{
		Dir: dir, Patterns: patterns, Budget: 5 * time.Minute,
		Seed: 1, Workers: 1, Schedules: schedules, SchedulesDir: t.TempDir(),
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
	return dir, res
}
