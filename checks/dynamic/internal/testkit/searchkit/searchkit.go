// Package searchkit is testkit for the test packages outside explore
// (realsuitetest, robusttest, searchtest): unlike testkit it may import explore.
package searchkit

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// ReplayAll returns testkit.CheckFindings's replay for the findings a
// search returned: at the first call their schedules are replayed with
// opts, each in a fresh process, building each package once
// (explore.ReplayMany), or not at all with opts.Build.
func ReplayAll(ctx context.Context, opts explore.ReplayOptions, findings []checks.Finding) func(checks.Finding) (testkit.Replayed, error) {
	var done bool
	got := map[string]testkit.Replayed{}
	failed := map[string]error{}
	return func(f checks.Finding) (testkit.Replayed, error) {
		if !done {
			done = true
			var paths []string
			var scheds []*rt.Schedule
			for _, g := range findings {
				if g.Schedule == "" {
					continue
				}
				sched, err := explore.ReadSchedule(g.Schedule)
				if err != nil {
					failed[g.Schedule] = err
					continue
				}
				paths, scheds = append(paths, g.Schedule), append(scheds, sched)
			}
			results, errs := explore.ReplayMany(ctx, scheds, opts)
			for i, p := range paths {
				if errs[i] != nil {
					failed[p] = errs[i]
					continue
				}
				rr := results[i]
				got[p] = testkit.Replayed{Reproduced: rr.Outcome == explore.Reproduced, Outcome: string(rr.Outcome), Finding: rr.Finding, Diverged: rr.Diverged}
			}
		}
		if err := failed[f.Schedule]; err != nil {
			return testkit.Replayed{}, err
		}
		rr, ok := got[f.Schedule]
		if !ok {
			return testkit.Replayed{}, fmt.Errorf("no schedule %q among the search's findings", f.Schedule)
		}
		return rr, nil
	}
}

// ReplayEach returns testkit.CheckFindings's replay that runs each
// finding's schedule once in a fresh process with opts
// (explore.ReplaySchedule: on opts.Build, or instrumented and built anew),
// as explore's own tests' checkFindings does: a replay counts when the
// earlier schedules it ran first did what they did when recorded.
func ReplayEach(ctx context.Context, opts explore.ReplayOptions) func(checks.Finding) (testkit.Replayed, error) {
	return func(f checks.Finding) (testkit.Replayed, error) {
		sched, err := explore.ReadSchedule(f.Schedule)
		if err != nil {
			return testkit.Replayed{}, err
		}
		rr, err := explore.ReplaySchedule(ctx, sched, f.Schedule, opts)
		if err != nil {
			return testkit.Replayed{}, err
		}
		diverged, earlierOff := rr.Diverged, rr.EarlierOff()
		if earlierOff != nil && diverged == "" {
			diverged = fmt.Sprintf("an earlier schedule run first (seed %d) %s", earlierOff.Seed, earlierOff.Off())
		}
		return testkit.Replayed{Reproduced: rr.Outcome == explore.Reproduced && earlierOff == nil, Outcome: string(rr.Outcome), Finding: rr.Finding, Diverged: diverged}, nil
	}
}

// Module skips t under -short, saying what the test does, and returns the
// absolute path of the nested module at rel.
func Module(t *testing.T, rel, what string) string {
	t.Helper()
	if testing.Short() {
		t.Skip(what + "; skipped with -short")
	}
	dir, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Build returns the shared build (explore.NewBuild) of the packages of
// patterns in the module at dir, logging how long instrumenting took; t's
// cleanup closes it.
func Build(t *testing.T, dir string, patterns []string) *explore.Build {
	t.Helper()
	b, err := explore.NewBuild(context.Background(), explore.BuildOptions{Dir: dir, Patterns: patterns, Stage: logStage(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// logStage logs what each stage took, to tell a slow or loaded machine's
// run.
func logStage(t *testing.T) func(explore.StageEvent) {
	return func(e explore.StageEvent) {
		if e.Done {
			t.Logf("stage %s: %v %s", e.Name, e.Took.Round(time.Millisecond), e.Detail)
		}
	}
}

// Search runs opts (its schedules in a new temporary directory each
// time), then again while retry says a finding was missed, at most three
// times more, with grow applied to the options first: a loaded machine
// runs fewer schedules, and slowness costs time, not a failure. It
// returns the last result and the options it ran with.
func Search(t *testing.T, opts explore.Options, retry func(*explore.Result, explore.Options) bool, grow func(*explore.Options)) (*explore.Result, explore.Options) {
	t.Helper()
	if opts.Stage == nil {
		opts.Stage = logStage(t)
	}
	for attempt := 0; ; attempt++ {
		opts.SchedulesDir = t.TempDir()
		res, err := explore.Run(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if attempt == 3 || !retry(res, opts) {
			return res, opts
		}
		grow(&opts)
		t.Logf("a finding was missed; searching again for %v, watchdog %v", opts.Budget, opts.StepTimeout)
	}
}

// CheckSearched logs res's notes and each test's statistics, and fails t
// for a searched test that want does not name, or in which no schedule
// ran unless idle allows it.
func CheckSearched(t *testing.T, res *explore.Result, want map[string]checks.FailureKind, idle func(explore.TestStats) bool) {
	t.Helper()
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	for _, ts := range res.Stats.Tests {
		t.Logf("%s: %d schedules (first failing: %d), unperturbed %q, cost %v, fresh %d", ts.Test, ts.Schedules, ts.ToFirstFailure, ts.Plain, ts.Cost, ts.Fresh)
		if _, ok := want[ts.Test]; !ok {
			t.Errorf("searched %s, which the case does not name", ts.Test)
		}
		if ts.Schedules == 0 && !idle(ts) {
			t.Errorf("%s: no schedule ran", ts.Test)
		}
	}
}
