package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestContextWorkers: goroutines that wait on t.Context() end when go
// test cancels it, after the test's function returns (testdata/testctx):
// no finding and no note, as under go test and synctest. A goroutine
// beside them that nothing frees is still a leak, naming only itself,
// and it replays.
func TestContextWorkers(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, "../testdata/testctx", []string{"."}, 10)
	ctx := context.Background()
	for _, n := range res.Notes {
		if strings.Contains(n, "TestWorkersStopWithTest") || strings.Contains(n, "TestSubtestWorkers") {
			t.Errorf("note on a correct test: %s", n)
		}
	}
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{
			"TestWorkersStopWithTest": "", "TestSubtestWorkers": "",
			"TestLeakBesideWorkers": checks.Leak,
		},
		Sites: map[string]string{"TestLeakBesideWorkers": "pool_test.go:84"},
	}
	checkFindings(ctx, t, res, c)
	for _, f := range res.Findings {
		t.Logf("%s: %s", f.Test, f.Message)
		if f.Test == "TestLeakBesideWorkers" && (strings.Contains(f.Message, "pool_test.go:2") || strings.Contains(f.Message, "pool_test.go:3")) {
			t.Errorf("the leak names a worker waiting on t.Context(): %s", f.Message)
		}
	}
}
