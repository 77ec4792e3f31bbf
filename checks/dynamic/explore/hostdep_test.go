package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestHostedGoroutines: a test whose goroutines a dependency starts
// (testdata/hostdep's grp, errgroup's shape) fails in one order of them.
// The dependency's synchronization is rewritten, so the scheduler chooses
// that order, and the finding replays with its schedule; the correct test
// beside it gives nothing. The same for a function the test submits to a
// task queue whose worker a dependency's constructor started (grp/taskq),
// and for a value of the dependency's own interface it runs on a goroutine
// it starts (grp/jobs, a scheduler's Job).
// The packages share one build.
func TestHostedGoroutines(t *testing.T) {
	t.Parallel()
	c := countedBuild(t, "../testdata/hostdep", []string{"./count", "./flight", "./suited"}, false)
	res := searchBuilt(t, c, []string{"./count"}, 30)
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestLostAdd": checks.TestFailure, "TestLocked": "", "TestLostAddQueued": checks.TestFailure, "TestLostAddJob": checks.TestFailure},
		Msgs:  map[string][]string{"TestLostAdd": {"total = 1, want 11"}, "TestLostAddQueued": {"total = 1, want 2"}, "TestLostAddJob": {"total = 1, want 11"}},
	}
	checkFindings(context.Background(), t, res, c)
	// Through a method: the goroutine running the test's function is
	// started by a dependency through a method it hands the function to
	// (testdata/hostdep's grp/flight, singleflight's DoChan: go
	// g.doCall(c, key, fn)). The dependency's synchronization is
	// rewritten, so the scheduler chooses the order that fails and the
	// finding replays.
	t.Run("through a method", func(t *testing.T) {
		res := searchBuilt(t, c, []string{"./flight"}, 30)
		c.Want = testkit.Want{
			Kinds: map[string]checks.FailureKind{"TestLostAddFlight": checks.TestFailure},
			Msgs:  map[string][]string{"TestLostAddFlight": {"total = 1, want 11"}},
		}
		checkFindings(context.Background(), t, res, c)
	})
	// Through a suite: a dependency runs the test's methods as subtests
	// through an interface *testing.T satisfies (testdata/hostdep's
	// grp/suite, testify's suite.Run). Its Run calls are rewritten, so
	// the subtests run under control: the scheduler chooses the order of
	// the method and its goroutine that fails, and the finding replays;
	// the correct suite beside it gives nothing.
	t.Run("through a suite", func(t *testing.T) {
		res := searchBuilt(t, c, []string{"./suited"}, 30)
		c.Want = testkit.Want{
			Kinds: map[string]checks.FailureKind{"TestLostAddSuite": checks.TestFailure, "TestLockedSuite": ""},
			Msgs:  map[string][]string{"TestLostAddSuite": {"total = 1, want 11"}},
		}
		checkFindings(context.Background(), t, res, c)
		for _, n := range res.Notes {
			if strings.Contains(n, "outside the scheduler's control") {
				t.Errorf("note: %s", n)
			}
		}
	})
}
