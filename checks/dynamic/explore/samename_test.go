package explore

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestSameNameBothPackages: a package and its external test package both
// declare TestCount (testdata/samename; echo's echotest declares two such
// names). The package builds under the rewrite (before, the driver's map
// had the name twice: "duplicate key", the package not searched), both
// functions run under the name, as go test runs both: the external one's
// lost update is found, sited at its function (not the driver's), and
// replays, and TestOnlyHere is searched too.
func TestSameNameBothPackages(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, "../testdata/samename", []string{"."}, 20)
	for _, n := range res.Notes {
		if strings.Contains(n, "not searched") || strings.Contains(n, "does not build") {
			t.Errorf("note: %s", n)
		}
	}
	var names []string
	for _, ts := range res.Stats.Tests {
		names = append(names, ts.Test)
	}
	slices.Sort(names)
	if want := []string{"TestCount", "TestOnlyHere"}; !slices.Equal(names, want) {
		t.Errorf("tests searched: %v, want %v", names, want)
	}
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestCount": checks.TestFailure, "TestOnlyHere": ""},
		Sites: map[string]string{"TestCount": "counter_ext_test.go:12"},
	}
	checkFindings(context.Background(), t, res, c)
}
