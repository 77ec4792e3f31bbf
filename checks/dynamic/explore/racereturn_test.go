package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestRaceAfterReturnLabelled: a race between a test's write and a read
// its watcher makes a minute later, after the test returned
// (testdata/racereturn; go-generics-cache's TestDeleteExpired, whose
// janitors read a global a test restores when their one-minute ticker
// fires), is reported and labelled as after the test returned; a race
// while the test still runs is not labelled so, and one on every
// schedule is told so, though the race detector reports it once per
// process (before: "on 3 of 36382 schedules", one per process). Both
// replay.
func TestRaceAfterReturnLabelled(t *testing.T) {
	t.Parallel()
	c, res := searchCountedRace(t, "../testdata/racereturn", []string{"."}, 6)
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestLateRead": checks.DataRace, "TestRaceEverySchedule": checks.DataRace},
	}
	checkFindings(context.Background(), t, res, c)
	for _, f := range res.Findings {
		if want := f.Test == "TestLateRead"; f.AfterReturn != want || strings.Contains(f.Labels(), checks.AfterReturnLabel) != want {
			t.Errorf("%s: after return %v, labels %q; want after return %v", f.Test, f.AfterReturn, f.Labels(), want)
		}
		if f.Test == "TestRaceEverySchedule" && (f.Frequency == nil || !f.Frequency.Every()) {
			t.Errorf("%s: frequency %+v, want every schedule", f.Test, f.Frequency)
		}
	}
}
