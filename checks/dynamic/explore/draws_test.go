package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestRandomDrawsReplay: tests that start as many goroutines as
// math/rand (or math/rand/v2) draws (testdata/draws) fail in some orders
// of them; each finding replays in a fresh process because the replay
// draws what the search drew (the schedule's seed fixes the stream), and
// so do those of a generator seeded from the clock (TestClockSeeded*),
// while a fixed seed draws the standard generator's values (TestFixedSeed
// passes), and draws after math/rand's Seed are the seeded generator's
// (TestSeedTwice passes; without rt's MathRandSeed every schedule failed,
// a note). rt's TestClockSeedReplays is the test that fails without rt's
// NewSource: these failures need two goroutines of any number drawn.
// TestDrawnAlone, one goroutine failing on some draws, is reported and
// labelled as decided by the draws, not the order (memberlist's
// TestShuffleNodes: a shuffle of 8 nodes equal to the original, 1 in 56).
func TestRandomDrawsReplay(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, "../testdata/draws", []string{"."}, 10)
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestRandomFanOut": checks.TestFailure, "TestRandomFanOutV2": checks.TestFailure,
			"TestClockSeededFanOut": checks.TestFailure, "TestClockSeededFanOutV2": checks.TestFailure,
			"TestFixedSeed": "", "TestSeedTwice": "", "TestDrawnAlone": checks.TestFailure},
	}
	for _, f := range res.Findings {
		if want := f.Test == "TestDrawnAlone"; f.DrawsOnly != want || strings.Contains(f.Labels(), checks.DrawsOnlyLabel) != want {
			t.Errorf("%s: draws only %v, labels %q; want draws only %v", f.Test, f.DrawsOnly, f.Labels(), want)
		}
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "TestClockSeeded") || strings.Contains(n, "TestFixedSeed") || strings.Contains(n, "TestSeedTwice") {
			t.Errorf("note: %s", n)
		}
	}
	checkFindings(context.Background(), t, res, c)
}
