//go:build heavy

package explore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// TestKernelStrategies: each strategy on its own (TestKernels runs the
// default portfolio, which rotates them) finds interleaving-dependent lock
// kernels, and its schedules replay in a fresh process. Three more
// race-instrumented searches than TestKernels, so behind the heavy tag:
//
//	go test -tags heavy -run TestKernelStrategies ./checks/dynamic/explore/
//
// Median schedules-to-bug per strategy are measured by
// bench/dynamic/strategies.sh, not here.
func TestKernelStrategies(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds race-instrumented kernels; skipped with -short")
	}
	dir, err := filepath.Abs(kernelsDir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]checks.FailureKind{
		"TestABBA":            checks.Deadlock,
		"TestLostUpdate":      checks.TestFailure,
		"TestCheckThenActMap": checks.TestFailure,
		"TestRecursiveRLock":  checks.Deadlock,
	}
	ctx := context.Background()
	for _, strategy := range []string{"random", "pct", "pos"} {
		t.Run(strategy, func(t *testing.T) {
			schedules := t.TempDir()
			res, err := Run(ctx, Options{
				Dir: dir, Patterns: []string{"./locks"}, Run: "^(TestABBA|TestLostUpdate|TestCheckThenActMap|TestRecursiveRLock)$",
				Budget: time.Duration(len(want)) * bugBudget, Schedules: strategySchedules,
				Race: true, Seed: 1, SchedulesDir: schedules, Strategy: strategy,
			})
			if err != nil {
				t.Fatal(err)
			}
			var rep *replayer
			for test, kind := range want {
				var hit *checks.Finding
				for i := range res.Findings {
					if f := &res.Findings[i]; f.Test == test && f.Kind == kind {
						hit = f
						break
					}
				}
				if hit == nil {
					t.Errorf("%s: %s not found", test, kind)
					continue
				}
				path := hit.Schedule
				if !filepath.IsAbs(path) {
					path = filepath.Join(dir, path)
				}
				sched, err := ReadSchedule(path)
				if err != nil {
					t.Fatal(err)
				}
				if sched.Strategy != strategy {
					t.Errorf("%s: schedule records strategy %q, want %q", test, sched.Strategy, strategy)
				}
				if rep == nil {
					if rep, err = newReplayer(ctx, sched, path, ReplayOptions{Dir: dir}); err != nil {
						t.Fatalf("replay build: %v", err)
					}
					defer rep.close()
				}
				rr, err := rep.run(ctx, sched, path)
				if err != nil {
					t.Errorf("%s: replay: %v", test, err)
					continue
				}
				if rr.Outcome != Reproduced {
					t.Errorf("%s: replay %s (diverged %q)", test, rr.Outcome, rr.Diverged)
				}
			}
			for _, st := range res.Stats.Tests {
				t.Logf("%s: %d schedules, first failure after %d", st.Test, st.Schedules, st.ToFirstFailure)
			}
		})
	}
}

// bugBudget is the search budget per buggy kernel test: ample for
// strategySchedules schedules per worker, which bound the search, so
// that a loaded machine takes longer rather than finding less.
const bugBudget = time.Minute

// strategySchedules is the schedules per worker and test of
// TestKernelStrategies.
const strategySchedules = 30
