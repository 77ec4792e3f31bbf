package searchtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/internal/testctx"
)

// TestFarJumpRacesOnTheChange: pr's search (EarlySleep, the change's
// sites as targets) may jump the clock far while a constructor is at its
// changed line (rt's farNow). That jump reaches the race of the changed
// line with the reader's tick, reported and replayed, and, when it goes to
// the test's own thirty-second watchdog instead, the watchdog's race with
// the test (both accesses in the test file): not reported, a note says
// why.
func TestFarJumpRacesOnTheChange(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a race-instrumented package")
	}
	dir, err := filepath.Abs("../../testdata/farjump")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(dir, "reader.go"))
	if err != nil {
		t.Fatal(err)
	}
	changed := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "r.stats = &stats{") {
			changed = i + 1
		}
	}
	target := fmt.Sprintf("%s:%d", filepath.Join(dir, "reader.go"), changed)
	build, err := explore.NewBuild(context.Background(), explore.BuildOptions{Dir: dir, Patterns: []string{"./..."}, Race: true})
	if err != nil {
		t.Fatal(err)
	}
	defer build.Close()
	onChange := func(f checks.Finding) bool {
		return f.Kind == checks.DataRace && strings.Contains(f.Message, fmt.Sprintf("reader.go:%d in farjump.New", changed))
	}
	inTest := func(f checks.Finding) bool {
		return f.Kind == checks.DataRace && strings.Contains(f.Message, "reader_test.go") && !strings.Contains(f.Message, "reader.go:")
	}
	// A count of schedules bounds each search (the budget is a guard);
	// other seeds until both jumps came, at most four searches.
	for attempt := 0; attempt < 4; attempt++ {
		res, err := explore.Run(context.Background(), explore.Options{
			Dir: dir, Patterns: []string{"./..."}, Budget: 5 * time.Minute, Schedules: 150, Race: true,
			EarlySleep: true, Targets: []string{target}, Seed: int64(1 + attempt), SchedulesDir: t.TempDir(), Build: build,
		})
		if err != nil {
			t.Fatal(err)
		}
		var found *checks.Finding
		for i, f := range res.Findings {
			t.Logf("finding %s: %s", f.Test, f.Message)
			if inTest(f) {
				t.Errorf("the watchdog's race, reached only through a far jump, was reported: %s", f.Message)
			}
			if onChange(f) {
				found = &res.Findings[i]
			}
		}
		dropped := false
		for _, n := range res.Notes {
			t.Log("note:", n)
			dropped = dropped || strings.Contains(n, "jumped further than a loaded machine's delay") && strings.Contains(n, "reader_test.go")
		}
		if found == nil || !dropped {
			t.Logf("seed %d: the changed line's race found: %v; the watchdog's race dropped: %v; searching again", 1+attempt, found != nil, dropped)
			continue
		}
		rr, err := explore.Replay(testctx.New(t), found.Schedule, explore.ReplayOptions{Dir: dir, Build: build})
		if err != nil {
			t.Fatal(err)
		}
		if rr.Outcome != explore.Reproduced {
			t.Errorf("replay of %s: %s, want the race again", found.Schedule, rr.Outcome)
		}
		return
	}
	t.Fatal("no search both found the changed line's race and dropped the watchdog's")
}
