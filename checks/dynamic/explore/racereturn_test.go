package explore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, err := filepath.Abs("../testdata/racereturn")
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBuild(context.Background(), BuildOptions{Dir: dir, Patterns: []string{"."}, Race: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	res, err := Run(context.Background(), Options{
		Dir: dir, Patterns: []string{"."}, Budget: 5 * time.Minute, Build: b, Race: true,
		Seed: 1, Workers: 1, Schedules: 6, SchedulesDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	c := findingCheck{dir: dir, build: b}
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
