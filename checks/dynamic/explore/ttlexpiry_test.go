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
//
// The runtime's stretch of a long run of clock reads (rt's stretch.go)
// takes the clock of TestHotKeyFresh minutes ahead of its work, and every
// schedule fails: the same decisions with the clock not stretched pass, so
// a note says the stretch made it, and no finding. TestStampsThenLoadTwice
// fails on a clock stretched as far, and unstretched too: a finding.
// TestFirstKeyExpires passes unstretched but fails under plain go test
// the same way: a finding too.
func TestTTLExpiry(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, "../testdata/ttlexpiry", []string{"."}, 24)
	c.Want = testkit.Want{Kinds: map[string]checks.FailureKind{
		"TestExpiredAtOnce":       "",
		"TestItemExpired":         "",
		"TestLoadOnce":            checks.TestFailure,
		"TestHotKeyFresh":         "",
		"TestStampsThenLoadTwice": checks.TestFailure,
		"TestFirstKeyExpires":     checks.TestFailure,
	}}
	checkFindings(context.Background(), t, res, c)
	for _, ts := range res.Stats.Tests {
		switch ts.Test {
		case "TestExpiredAtOnce", "TestItemExpired":
			if ts.Failures > 0 || ts.Schedules == 0 {
				t.Errorf("%s: %d of %d schedules failed, want none of at least one", ts.Test, ts.Failures, ts.Schedules)
			}
		case "TestHotKeyFresh":
			if ts.Failures == 0 {
				t.Errorf("%s: none of %d schedules failed: the stretch no longer expires its key, and the check of its failures goes untested", ts.Test, ts.Schedules)
			}
		}
	}
	stretchMade := false
	for _, n := range res.Notes {
		t.Log("note:", n)
		if strings.Contains(n, "TestExpiredAtOnce") || strings.Contains(n, "TestItemExpired") || strings.Contains(n, "TestStampsThenLoadTwice") || strings.Contains(n, "TestFirstKeyExpires") {
			t.Errorf("note %q, want none on the tests that count on the clock moving or fail unstretched", n)
		}
		stretchMade = stretchMade || strings.HasPrefix(n, "TestHotKeyFresh: ") && strings.Contains(n, "the stretch made it, not the code")
	}
	if !stretchMade {
		t.Errorf("no note says the stretch made TestHotKeyFresh's failure")
	}
	for _, f := range res.Findings {
		if f.Test != "TestStampsThenLoadTwice" && f.Test != "TestFirstKeyExpires" {
			continue
		}
		sched, err := ReadSchedule(f.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		if !sched.Stretch {
			t.Errorf("%s's schedule is not stretched: it no longer tells whether a stretched failure stands", f.Test)
		}
	}
}
