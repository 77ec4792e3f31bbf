package explore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestTestUntil: a test's search ends at the first failure TestUntil
// accepts. TestFailsInOneWorker fails in one process only, so the other
// worker's process runs on until it is told to stop (rt.Config.StopFile):
// the search ends far inside its budget, which only bounds a search that
// does not stop. The failure needs its process's earlier schedule: a
// note, not a finding. (kerneltest replays what TestUntil accepted.)
func TestTestUntil(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented package; skipped with -short")
	}
	dir, err := filepath.Abs(robustDir)
	if err != nil {
		t.Fatal(err)
	}
	// Where TestFailsInOneWorker's processes claim their file: each has an
	// os.TempDir of its own. Not parallel: Setenv.
	t.Setenv("FIRSTFAIL_CLAIMS", t.TempDir())
	ctx := context.Background()
	// Ample, so that what the search does besides schedules (the
	// unperturbed run, plain go test, the replay) cannot reach half of it
	// on a loaded machine; a search that does not stop runs all of it.
	budget := 6 * time.Minute
	res, err := Run(ctx, Options{
		Dir: dir, Patterns: []string{"./firstfail"},
		Budget: budget, Seed: 1, Workers: 2, SchedulesDir: t.TempDir(),
		TestUntil: func(f checks.Finding) bool { return f.Kind == checks.TestFailure },
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	if len(res.Stats.Tests) != 1 {
		t.Fatalf("stats %+v, want TestFailsInOneWorker's", res.Stats.Tests)
	}
	ts := res.Stats.Tests[0]
	t.Logf("%s: %d schedules in %v, first failing %d, unperturbed %q", ts.Test, ts.Schedules, res.Stats.Elapsed, ts.ToFirstFailure, ts.Plain)
	if ts.Plain != "pass" || !ts.Met {
		t.Errorf("unperturbed %q, met %v; want a pass, then the failure found by the search", ts.Plain, ts.Met)
	}
	if res.Stats.Elapsed >= budget/2 {
		t.Errorf("the search ran %v of its %v after TestUntil accepted the failure", res.Stats.Elapsed, budget)
	}
	if !testkit.ContainsAny(res.Notes, "TestFailsInOneWorker: not reported") || len(res.Findings) != 0 {
		t.Errorf("findings %+v, notes %q; want a note saying the failure did not replay alone", res.Findings, res.Notes)
	}
}
