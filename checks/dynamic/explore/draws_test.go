package explore

import (
	"context"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestRandomDrawsReplay: tests that start as many goroutines as
// math/rand (or math/rand/v2) draws (testdata/draws) fail in some orders
// of them; each finding replays in a fresh process because the replay
// draws what the search drew (the schedule's seed fixes the stream).
func TestRandomDrawsReplay(t *testing.T) {
	c, res := searchCounted(t, "../testdata/draws", []string{"."}, 10)
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestRandomFanOut": checks.TestFailure, "TestRandomFanOutV2": checks.TestFailure},
	}
	checkFindings(context.Background(), t, res, c)
}
