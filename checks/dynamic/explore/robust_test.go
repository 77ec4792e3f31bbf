package explore

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// robustDir is the nested module of awkward tests (not bug kernels).
const robustDir = "../testdata/robust"

// robustBudget is the budget of a short search (the cases of robusttest
// use the same); robustGrace bounds how long past it the search may run:
// loose enough for a loaded machine (robusttest says more).
const (
	robustBudget = 1500 * time.Millisecond
	robustGrace  = time.Minute
)

// TestRobustErrors: a package without tests, a TestMain that never runs
// the tests and a package that does not compile end the search with errors
// that say so.
func TestRobustErrors(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(robustDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	t.Run("no tests", func(t *testing.T) {
		start := time.Now()
		_, err := Run(ctx, Options{Dir: dir, Patterns: []string{"./notests"}, Budget: robustBudget, SchedulesDir: t.TempDir()})
		var nt *NoTestsError
		if !errors.As(err, &nt) || !strings.Contains(err.Error(), "no Test functions in ./notests") {
			t.Fatalf("err = %v, want a NoTestsError naming ./notests", err)
		}
		if d := time.Since(start); d > 30*time.Second {
			t.Errorf("took %v to find no tests", d)
		}
	})
	t.Run("TestMain hangs", func(t *testing.T) {
		if testing.Short() {
			t.Skip("builds a test binary and waits out the budget; skipped with -short")
		}
		// Hung, not stopped by the budget, is a process quiet for the
		// watchdog's limit: here a quarter of a second, far below the
		// budget it is quiet for whatever the machine's load.
		var searchStart time.Time
		const budget = 2 * time.Second
		_, err := Run(ctx, Options{
			Dir: dir, Patterns: []string{"./mainhang"}, Budget: budget, StepTimeout: 250 * time.Millisecond, SchedulesDir: t.TempDir(),
			Progress: func(st Stats) {
				if !st.Building && searchStart.IsZero() {
					searchStart = time.Now().Add(-st.Elapsed)
				}
			},
		})
		if err == nil || !strings.Contains(err.Error(), "hung before its first schedule (in TestMain") {
			t.Fatalf("err = %v, want one saying the process hung before its first schedule", err)
		}
		if max := budget + childGrace + robustGrace; searchStart.IsZero() || time.Since(searchStart) > max {
			t.Errorf("the search took %v, want at most %v", time.Since(searchStart), max)
		}
	})
	t.Run("TestMain outlasts the budget", func(t *testing.T) {
		if testing.Short() {
			t.Skip("builds a test binary and waits out the budget; skipped with -short")
		}
		// The same process, its watchdog longer than the budget: stopped
		// by the budget before it was seen hanging (as a slow start on a
		// loaded machine is), which a larger budget may cure.
		_, err := Run(ctx, Options{Dir: dir, Patterns: []string{"./mainhang"}, Budget: time.Second, StepTimeout: time.Hour, SchedulesDir: t.TempDir()})
		if !errors.Is(err, ErrNoScheduleInBudget) || strings.Contains(err.Error(), "hung") || !strings.Contains(err.Error(), "before its first schedule") {
			t.Fatalf("err = %v, want ErrNoScheduleInBudget, not seen hanging", err)
		}
	})
	t.Run("does not compile", func(t *testing.T) {
		_, err := Run(ctx, Options{Dir: dir, Patterns: []string{"./broken"}, Budget: robustBudget, SchedulesDir: t.TempDir()})
		var be *BuildError
		if !errors.As(err, &be) {
			t.Fatalf("err = %v, want a BuildError", err)
		}
		if !strings.Contains(be.Output, "broken_test.go:6:") || !strings.Contains(be.Output, "cannot use") {
			t.Errorf("build output %q, want the compiler's error at broken_test.go:6", be.Output)
		}
	})
}
