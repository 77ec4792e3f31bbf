package gen

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestTagsGen: testdata/tagged's one type, Ledger (a lock-order
// deadlock), is in a file only the build tag interleavegentag includes.
// Without the tag gen finds no type; with it gen loads, runs sequentially,
// searches and replays with the tag, and its schedule carries the tag, so
// the replay builds with it whatever GOFLAGS says.
func TestTagsGen(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches generated tests")
	}
	t.Setenv("GOFLAGS", "")
	ctx := context.Background()
	dir := t.TempDir()
	if err := copyTree("testdata/tagged", dir); err != nil {
		t.Fatal(err)
	}
	// Bounded by a count; the budget only stops a machine that cannot do it.
	// Ledger's search ends at its first failure (untilFound).
	o := Options{Dir: dir, PerType: 3, Seed: 1, Budget: 5 * time.Minute, Schedules: 40, SchedulesDir: filepath.Join(dir, ".interleave", "schedules")}
	untilFound("Ledger")(&o)
	var nt *NoTargetsError
	if _, err := Run(ctx, o); !errors.As(err, &nt) {
		t.Fatalf("without the tag: err %v, want no type to test (ledger.go is not in the build)", err)
	}
	o.Tags = []string{"interleavegentag"}
	res, err := Run(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Types) != 1 || res.Types[0].Type != "Ledger" || res.Types[0].Kept == 0 {
		t.Fatalf("types %+v, want Ledger with tests searched; notes %q", res.Types, res.Notes)
	}
	var f *checks.Finding
	for i := range res.Findings {
		if res.Findings[i].Kind == checks.Deadlock {
			f = &res.Findings[i]
		}
	}
	if f == nil {
		t.Fatalf("no deadlock of Ledger found: %d findings, notes %q", len(res.Findings), res.Notes)
	}
	path := f.Schedule
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	s, err := explore.ReadSchedule(path)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.Tags, o.Tags) || s.Version < rt.ScheduleVersionTags || len(s.Files) != 1 {
		t.Errorf("schedule: tags %q, version %d, %d files; want the tag, version >= %d and the generated file", s.Tags, s.Version, len(s.Files), rt.ScheduleVersionTags)
	}
	rr, err := explore.Replay(ctx, path, explore.ReplayOptions{Dir: dir})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if rr.Outcome != explore.Reproduced || rr.Finding == nil || rr.Finding.Kind != checks.Deadlock {
		t.Errorf("replay: %s (%v), want the deadlock again", rr.Outcome, rr.Finding)
	}
}
