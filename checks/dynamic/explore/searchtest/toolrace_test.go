package searchtest

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit/searchkit"
	"github.com/interleave-dev/interleave/internal/testctx"
)

// toolraceDir is the nested module of races through interleave's runtime.
const toolraceDir = "../../testdata/toolrace"

// TestToolRaceIsNote (issue 21 item 2; from explore, whose binary then
// built nothing with -race): built with -tags
// interleave_selfrace the runtime reads a context's timer without the
// context's lock (rt's timerOf before go-redis's TestConnectionHook): that
// race, one access in the runtime's own function, is a note, not a finding
// of TestCancelParent (whose frames it would have been shown with). The
// code's own race on its map, both accesses' innermost runtime frame a
// wrapper acting for the code (MapIter's collectKeys), stays a finding at
// the code's lines and replays.
func TestToolRaceIsNote(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a race-instrumented test binary; skipped with -short")
	}
	dir, err := filepath.Abs(toolraceDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testctx.New(t)
	// Instrumented and built once, for the search and the replays.
	b, err := explore.NewBuild(ctx, explore.BuildOptions{Dir: dir, Race: true, Tags: []string{"interleave_selfrace"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	res, err := explore.Run(ctx, explore.Options{Dir: dir, Budget: 3 * time.Minute, Schedules: 20, Seed: 1, Race: true,
		Tags: []string{"interleave_selfrace"}, SchedulesDir: t.TempDir(), Build: b})
	if err != nil {
		t.Fatal(err)
	}
	var note string
	for _, n := range res.Notes {
		if strings.HasPrefix(n, "TestCancelParent: not reported: a data race of interleave's own runtime") {
			note = n
		}
	}
	if note == "" || !strings.Contains(note, "in interleavert.timerOf") {
		t.Errorf("no note of the runtime's own race in TestCancelParent (timerOf); notes:\n%s", strings.Join(res.Notes, "\n"))
	}
	testkit.CheckFindings(t, res.Findings, testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestCancelParent": "", "TestRangeWhileStoring": checks.DataRace},
		Sites: map[string]string{"TestRangeWhileStoring": "toolrace_test.go:39|toolrace_test.go:43"},
		Msgs:  map[string][]string{"TestRangeWhileStoring": {"toolrace_test.go:43 in toolrace.TestRangeWhileStoring"}},
	}, searchkit.ReplayEach(ctx, explore.ReplayOptions{Dir: dir, Build: b}))
}
