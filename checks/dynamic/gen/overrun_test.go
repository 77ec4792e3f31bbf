//go:build heavy

package gen

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// TestOnBaseSearchedPastBudget: when the sequential runs take more than
// the whole budget (gocron at load 43 on cold caches: 32.5 s of 27.9 s),
// a kept test that fails sequentially here and passes on the base commit
// is still searched, alone, by a count of schedules, and its deadlock is
// reported and replays; before, nothing was searched ("their sequential
// runs took … of -budget"). The sequential runs' duration is counted on a
// fake clock that each go test run moves past the budget, so the machine's
// speed does not decide it. Valve's head blocks in Close after Open,
// Close, Open (testdata/onbase); its base does not.
func TestOnBaseSearchedPastBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches the valve kernel")
	}
	ctx := context.Background()
	head, base := copyHeadBase(t, "testdata/onbase")
	const budget = 20 * time.Second
	var late time.Duration // what the fake clock is ahead of the real one
	oldGoTest, oldClock := goTest, clock
	t.Cleanup(func() { goTest, clock = oldGoTest, oldClock })
	clock = func() time.Time { return time.Now().Add(late) }
	goTest = func(ctx context.Context, dir, timeout string, parallel int, tags, names, pkgs []string, built *time.Duration) (map[string]string, map[string][]byte, string, error) {
		st, outs, stderr, err := goTestJSON(ctx, dir, timeout, parallel, tags, names, pkgs, built)
		late += budget // each run "took" the whole budget
		return st, outs, stderr, err
	}
	schedulesDir := filepath.Join(head, ".interleave", "schedules")
	res, err := Run(ctx, Options{
		Dir: head, Types: "^Valve$", PerType: 4, Seed: 1, Budget: budget,
		SchedulesDir: schedulesDir, BaseDir: base,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Types) != 1 || res.Types[0].OnBase == 0 {
		t.Fatalf("no generated test was kept for passing on the base: %+v", res.Types)
	}
	if !slices.ContainsFunc(res.Notes, func(n string) bool {
		return strings.Contains(n, "only the") && strings.Contains(n, "pass on the base commit were searched")
	}) {
		t.Errorf("no note that only the tests passing on the base were searched: %q", res.Notes)
	}
	var f *checks.Finding
	for i := range res.Findings {
		if res.Findings[i].Kind == checks.Deadlock && strings.Contains(res.Findings[i].Message, "pass on the base commit") {
			f = &res.Findings[i]
		}
	}
	if f == nil {
		t.Fatalf("no deadlock that passes on the base: %+v\nnotes: %q", res.Findings, res.Notes)
	}
	if most := (onBaseSchedules + 1) * runtime.GOMAXPROCS(0) * res.Types[0].OnBase; res.Stats.Schedules > most {
		t.Errorf("%d schedules searched, want at most %d (%d a worker and test, the unperturbed one too)", res.Stats.Schedules, most, onBaseSchedules+1)
	}
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
