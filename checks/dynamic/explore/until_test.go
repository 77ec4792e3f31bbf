package explore

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestUntil: a search told to stop at a test-failure of TestLostUpdate
// ends there, well inside its budget, with that failure as its finding,
// and the finding replays. The budget only bounds a search that does not
// stop.
func TestUntil(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds an instrumented kernel; skipped with -short")
	}
	dir, build := sharedBuild(t, kernelsDir)
	var mu sync.Mutex
	var asked []checks.Finding
	budget := 5 * time.Minute
	ctx := context.Background()
	res, err := Run(ctx, Options{
		Dir: dir, Patterns: []string{"./locks"},
		Tests:  []TestRef{{Package: "kernels/locks", Name: "TestLostUpdate"}},
		Budget: budget, Seed: 1, Workers: 2, SchedulesDir: t.TempDir(), Build: build,
		Until: func(fd checks.Finding) bool {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, fd)
			return fd.Kind == checks.TestFailure && fd.Test == "TestLostUpdate" && fd.Schedule == ""
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d schedules in %v, %d failures asked about", res.Stats.Schedules, res.Stats.Elapsed, len(asked))
	if !res.Met || len(asked) == 0 {
		t.Fatalf("Met %v after %d failures asked about, want the search to stop at the first", res.Met, len(asked))
	}
	if res.Stats.Elapsed >= budget {
		t.Errorf("the search ran its whole budget (%v) after Until returned true", res.Stats.Elapsed)
	}
	checkFindings(ctx, t, res, findingCheck{dir: dir, build: build, Want: testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestLostUpdate": checks.TestFailure},
	}})
}
