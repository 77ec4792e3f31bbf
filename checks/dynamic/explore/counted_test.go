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
// It returns the findingCheck of checkFindings with the module's
// directory and the search's build, which the replays run.
func searchCounted(t *testing.T, rel string, patterns []string, schedules int) (findingCheck, *Result) {
	t.Helper()
	c := countedBuild(t, rel, patterns, false)
	return c, searchBuilt(t, c, patterns, schedules)
}

// searchCountedRace is searchCounted under the race detector.
func searchCountedRace(t *testing.T, rel string, patterns []string, schedules int) (findingCheck, *Result) {
	t.Helper()
	c := countedBuild(t, rel, patterns, true)
	return c, searchBuilt(t, c, patterns, schedules)
}

// countedBuild is searchCounted's build of the packages patterns of
// module rel, for the searches of searchBuilt; t's cleanup closes it.
func countedBuild(t *testing.T, rel string, patterns []string, race bool) findingCheck {
	t.Helper()
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBuild(context.Background(), BuildOptions{Dir: dir, Patterns: patterns, Race: race})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return findingCheck{dir: dir, build: b, race: race}
}

// searchBuilt is searchCounted's search of the packages patterns of c's
// build.
func searchBuilt(t *testing.T, c findingCheck, patterns []string, schedules int) *Result {
	t.Helper()
	res, err := Run(context.Background(), Options{
		Dir: c.dir, Patterns: patterns, Budget: 5 * time.Minute, Build: c.build,
		Seed: 1, Workers: 1, Schedules: schedules, SchedulesDir: t.TempDir(), Race: c.race,
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
	return res
}
