package explore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestPlainBeside: plain go test's run of a test whose unperturbed
// schedule failed goes on beside the search. The plain run of TestGate
// waits until the search of the tests has begun (a file the Stage hook
// makes then), so it fails the same way only when it does not hold up
// the unperturbed runs; the finding is then labelled "fails too".
func TestPlainBeside(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	gate := filepath.Join(t.TempDir(), "gate")
	t.Setenv("INTERLEAVE_TEST_GATE", gate)
	res, err := Run(context.Background(), Options{
		Dir: dir, Patterns: []string{"./plainbeside"}, Run: "^(TestGate|TestOther)$", Budget: 2 * time.Minute, Seed: 1, Schedules: 2, SchedulesDir: t.TempDir(), Build: build,
		Stage: func(e StageEvent) {
			if strings.HasPrefix(e.Name, "searching ") {
				os.WriteFile(gate, nil, 0o644)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	var gated bool
	for _, f := range res.Findings {
		if f.Test != "TestGate" {
			t.Errorf("%s: unexpected %s: %s", f.Test, f.Kind, f.Message)
			continue
		}
		gated = true
		if !f.PlainGo.Fails() {
			t.Errorf("TestGate: %s, want plain go test fails too (its run went on beside the search)", f.Labels())
		}
	}
	if !gated {
		t.Errorf("TestGate not reported; notes %q", res.Notes)
	}
}

// TestPendingStopsAtPass: while a failure of the unperturbed schedule
// waits to be told (TestPending's plain go test run waits for a gate
// opened once TestUntil is asked), the worker's processes stop at their
// first passing schedule, not run their whole count; once one passed,
// the next failing schedule is told and ends the search (TestUntil).
// Before, the process after the first failure ran the rest of the 100.
func TestPendingStopsAtPass(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	gate := filepath.Join(t.TempDir(), "gate")
	t.Setenv("INTERLEAVE_PENDING_GATE", gate)
	ctx := context.Background()
	res, err := Run(ctx, Options{
		Dir: dir, Patterns: []string{"./plainbeside"}, Run: "^TestPending$", Budget: 2 * time.Minute, Seed: pendingSeed,
		Workers: 1, Schedules: 100, SchedulesDir: t.TempDir(), Build: build,
		TestUntil: func(checks.Finding) bool {
			os.WriteFile(gate, nil, 0o644)
			return true
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	var ts *TestStats
	for i := range res.Stats.Tests {
		if res.Stats.Tests[i].Test == "TestPending" {
			ts = &res.Stats.Tests[i]
		}
	}
	if ts == nil {
		t.Fatalf("TestPending not searched: %+v", res.Stats.Tests)
	}
	t.Logf("TestPending: %d schedules, %d failing, first failing %d, met %v", ts.Schedules, ts.Failures, ts.ToFirstFailure, ts.Met)
	if !ts.Met || ts.Schedules > pendingMost {
		t.Errorf("TestPending: %d schedules, met %v; want met within %d (its processes stop at a pass while its failure waits)", ts.Schedules, ts.Met, pendingMost)
	}
	checkFindings(ctx, t, res, findingCheck{dir: dir, build: build, Want: testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestPending": checks.TestFailure},
		Msgs:  map[string][]string{"TestPending": {"took the lock first"}},
	}})
}

// pendingSeed makes TestPendingStopsAtPass's first searched schedule
// fail, so that its failure waits; pendingMost is how many schedules
// the search of TestPending may run with that seed (its count is 100).
const (
	pendingSeed = 1
	pendingMost = 10
)
