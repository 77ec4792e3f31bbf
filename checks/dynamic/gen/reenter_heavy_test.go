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

// TestReentryOnBase: the callback re-entry cases (reentries) find the
// head's two self-deadlocks (Bus's handler calling Topics under Publish,
// Ledger's change function calling Len under Put), each reported once as
// a deadlock that passes on the base commit and replayed from the pasted
// file; Feed, which unlocks before its handlers run, and Board, whose doc
// forbids calling it from a handler, stay silent. Behind -tags heavy: it
// builds the head and the base with the race detector.
func TestReentryOnBase(t *testing.T) {
	ctx := context.Background()
	head, base := copyHeadBase(t, "testdata/reenter")
	schedulesDir := filepath.Join(head, ".interleave", "schedules")
	res, err := Run(ctx, Options{
		Dir: head, Guarded: true, PerType: 4, Seed: 1, Budget: 5 * time.Minute, Schedules: 5,
		Race: true, SchedulesDir: schedulesDir, BaseDir: base,
	})
	if err != nil {
		t.Fatal(err)
	}
	byType := map[string][]checks.Finding{}
	for _, f := range res.Findings {
		typ := f.Test[strings.Index(f.Test, "_")+1 : strings.LastIndex(f.Test, "_")]
		byType[typ] = append(byType[typ], f)
	}
	for _, typ := range []string{"Feed", "Board"} {
		if len(byType[typ]) > 0 {
			t.Errorf("%s, correct, has findings: %+v", typ, byType[typ])
		}
	}
	for _, typ := range []string{"Bus", "Ledger"} {
		fs := byType[typ]
		if len(fs) != 1 || fs[0].Kind != checks.Deadlock || !strings.Contains(fs[0].Message, "pass on the base commit") {
			t.Errorf("%s: findings %+v, want one deadlock that passes on the base commit\nnotes: %v", typ, fs, res.Notes)
			continue
		}
		f := fs[0]
		t.Logf("%s: %s", f.Test, f.Message)
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
}
