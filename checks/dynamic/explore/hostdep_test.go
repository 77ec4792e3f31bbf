package explore

import (
	"context"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestHostedGoroutines: a test whose goroutines a dependency starts
// (testdata/hostdep's grp, errgroup's shape) fails in one order of them.
// The dependency's synchronization is rewritten, so the scheduler chooses
// that order, and the finding replays with its schedule; the correct test
// beside it gives nothing. The same for a function the test submits to a
// task queue whose worker a dependency's constructor started (grp/taskq).
func TestHostedGoroutines(t *testing.T) {
	dir, res := searchCounted(t, "../testdata/hostdep", []string{"./count"}, 30)
	checkFindings(context.Background(), t, res, findingCheck{dir: dir, Want: testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestLostAdd": checks.TestFailure, "TestLocked": "", "TestLostAddQueued": checks.TestFailure},
		Msgs:  map[string][]string{"TestLostAdd": {"total = 1, want 11"}, "TestLostAddQueued": {"total = 1, want 2"}},
	}})
}

// TestHostedThroughMethod: the goroutine running the test's function is
// started by a dependency through a method it hands the function to
// (testdata/hostdep's grp/flight, singleflight's DoChan: go
// g.doCall(c, key, fn)). The dependency's synchronization is rewritten,
// so the scheduler chooses the order that fails and the finding replays.
func TestHostedThroughMethod(t *testing.T) {
	dir, res := searchCounted(t, "../testdata/hostdep", []string{"./flight"}, 30)
	checkFindings(context.Background(), t, res, findingCheck{dir: dir, Want: testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestLostAddFlight": checks.TestFailure},
		Msgs:  map[string][]string{"TestLostAddFlight": {"total = 1, want 11"}},
	}})
}
