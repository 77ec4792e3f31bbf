package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestTTLExpiry: a cache item given a nanosecond to live has expired when
// the cache is next read (testdata/ttlexpiry; ttlcache's Test_Cache_Keys
// and Test_Cache_Items): no schedule of the two tests that count on it
// fails, as none did under go test, because a read of the virtual clock
// moves it by rt.NowTick. (With a nanosecond per read, TestItemExpired
// failed on every schedule and TestExpiredAtOnce whenever the range read
// the short-lived item first.) The cache's check-then-act is still found,
// and its schedule replays.
func TestTTLExpiry(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, "../testdata/ttlexpiry", []string{"."}, 24)
	c.Want = testkit.Want{Kinds: map[string]checks.FailureKind{
		"TestExpiredAtOnce": "",
		"TestItemExpired":   "",
		"TestLoadOnce":      checks.TestFailure,
	}}
	checkFindings(context.Background(), t, res, c)
	for _, ts := range res.Stats.Tests {
		if ts.Test != "TestLoadOnce" && (ts.Failures > 0 || ts.Schedules == 0) {
			t.Errorf("%s: %d of %d schedules failed, want none of at least one", ts.Test, ts.Failures, ts.Schedules)
		}
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "TestExpiredAtOnce") || strings.Contains(n, "TestItemExpired") {
			t.Errorf("note %q, want none on the tests that count on the clock moving", n)
		}
	}
}
