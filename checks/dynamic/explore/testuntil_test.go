package explore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestTestUntil: each test's search ends at the first failure TestUntil
// accepts. TestReadAfterSignal's data race only some schedules reach (the
// unperturbed one does not); TestFailsInOneWorker fails only in the first
// worker's process, so the other worker's process runs on until it is told
// to stop (rt.Config.StopFile). The search ends far inside its budget,
// which only bounds a search that does not stop; the race replays, and the
// failure that needs its process's earlier schedule is a note.
func TestTestUntil(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a race-instrumented package; skipped with -short")
	}
	dir, err := filepath.Abs(robustDir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]checks.FailureKind{"TestReadAfterSignal": checks.DataRace, "TestFailsInOneWorker": checks.TestFailure}
	// The file TestFailsInOneWorker's processes claim (-count runs this
	// process's searches again).
	claim := filepath.Join(os.TempDir(), fmt.Sprintf("interleave-firstfail-%d", os.Getpid()))
	os.Remove(claim)
	defer os.Remove(claim)
	ctx := context.Background()
	budget := 3 * time.Minute
	res, err := Run(ctx, Options{
		Dir: dir, Patterns: []string{"./firstfail"},
		Budget: budget, Race: true, Seed: 1, Workers: 2, SchedulesDir: t.TempDir(),
		TestUntil: func(f checks.Finding) bool { return f.Kind == want[f.Test] },
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	for _, ts := range res.Stats.Tests {
		t.Logf("%s: %d schedules, first failing %d, unperturbed %q", ts.Test, ts.Schedules, ts.ToFirstFailure, ts.Plain)
		if ts.Plain != "pass" || !ts.Met {
			t.Errorf("%s: unperturbed %q, met %v; want a pass, then the failure found by the search", ts.Test, ts.Plain, ts.Met)
		}
	}
	if res.Stats.Elapsed >= budget/2 {
		t.Errorf("the search ran %v of its %v after TestUntil accepted every test's failure", res.Stats.Elapsed, budget)
	}
	if !testkit.ContainsAny(res.Notes, "TestFailsInOneWorker: not reported") {
		t.Errorf("notes %q, want one saying TestFailsInOneWorker's failure did not replay alone", res.Notes)
	}
	for test := range want {
		if !strings.HasPrefix(test, "TestReadAfterSignal") {
			want[test] = ""
		}
	}
	checkFindings(ctx, t, res, findingCheck{dir: dir, Want: testkit.Want{Kinds: want}})
}
