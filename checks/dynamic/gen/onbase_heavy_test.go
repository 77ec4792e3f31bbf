//go:build heavy

package gen

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// TestOnBase: a generated test whose calls block when run sequentially is
// dropped, unless the same calls pass on the change's base commit
// (Options.BaseDir): then the change broke them, and the search reports
// the hang as a deadlock that replays. Valve's head blocks in Close after
// Open, Close, Open (testdata/onbase); its base does not. By default
// cmd/interleave/e2e's TestPRGenOnBase checks the same through pr (gen
// on the valve kernel with the merge base: the deadlock, its message and
// its replay), so this one is behind -tags heavy.
func TestOnBase(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the race detector")
	}
	ctx := context.Background()
	head, base := copyHeadBase(t, "testdata/onbase")
	schedulesDir := filepath.Join(head, ".interleave", "schedules")
	res, err := Run(ctx, Options{
		Dir: head, Types: "^Valve$", PerType: 4, Seed: 1, Budget: 5 * time.Minute, Schedules: 5,
		Race: true, SchedulesDir: schedulesDir, BaseDir: base,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Types) != 1 || res.Types[0].OnBase == 0 {
		t.Fatalf("no generated test was kept for passing on the base: %+v", res.Types)
	}
	var f *checks.Finding
	for i := range res.Findings {
		if res.Findings[i].Kind == checks.Deadlock && strings.Contains(res.Findings[i].Message, "pass on the base commit") {
			f = &res.Findings[i]
		}
	}
	if f == nil {
		t.Fatalf("no deadlock that passes on the base: %+v\nnotes: %v", res.Findings, res.Notes)
	}
	t.Logf("%s: %s", f.Test, f.Message)
	// Paste the generated file and replay the finding's schedule.
	for _, rp := range res.Repros {
		if slices.Contains(rp.Tests, f.Test) {
			if err := os.WriteFile(filepath.Join(head, FileName), rp.Source, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	sched := f.Schedule
	if !filepath.IsAbs(sched) {
		sched = filepath.Join(head, sched)
	}
	rr, err := explore.Replay(ctx, sched, explore.ReplayOptions{Dir: head})
	if err != nil {
		t.Fatal(err)
	}
	if rr.Outcome != explore.Reproduced || rr.Finding == nil || rr.Finding.Kind != checks.Deadlock {
		t.Errorf("replay of %s: %s (%v, diverged %q), want a deadlock again", f.Test, rr.Outcome, rr.Finding, rr.Diverged)
	}
}
