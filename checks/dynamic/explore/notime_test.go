package explore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestNoTimeLeftStillReported (issue 21): a failure the search saw whose
// replay found no time left in the budget is reported all the same, with
// its schedule and replay line, labelled checks.NotReplayedNoTime, when one
// of its failing schedules was the first its process ran (nothing an
// earlier schedule left is in it); that schedule becomes the finding's.
// A failure that only ever failed after other schedules in its process
// (state they left: globalstate's database driver registered twice) or that a
// watchdog ended (a loaded machine) stays a note. The budget's end, and
// the time a first replay may run past it (replayOverrun), are moved to
// the past: no replay can run. Fails without unreplayed (a note, no
// finding).
func TestNoTimeLeftStillReported(t *testing.T) {
	t.Parallel()
	leak := func(seed int64, prior int) *failure {
		return &failure{kind: checks.Leak, message: rt.LeakRunning + "4000 decisions later, the last 2000 fair: g1 running at select at k_test.go:70",
			site: "/src/k/k_test.go:70", seed: seed, strategy: "random", decisions: []rt.Decision{{G: 0, Site: "x.go:1", Op: "go"}},
			prior: make([]rt.Result, prior)}
	}
	for _, c := range []struct {
		name      string
		f, first  *failure // the failure kept, and its first-in-process one
		wantSeed  int64    // of the finding's schedule (0: a note)
		wantInWhy string
	}{
		{"first in its process", leak(3, 0), nil, 3, ""},
		{"a later one kept, the first in its process reported", leak(5, 2), leak(4, 0), 4, ""},
		{"only after others in its process", leak(5, 2), nil, 0, "ran after others in its process"},
		{"a hang", &failure{kind: checks.Fatal, message: "hang: g1 did not reach a scheduling point within 5s since chan send at k.go:11", site: "/src/k/k.go:11",
			seed: 6, strategy: "random", decisions: []rt.Decision{{G: 0, Site: "x.go:1", Op: "go"}}}, nil, 0, "a watchdog ended it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, _, fd := fakeFinding(t, "TestLongLeak", c.f)
			k := s.order[0]
			if c.first != nil {
				s.firstRun = map[string]*failure{k: c.first}
			}
			s.hardStop = time.Now().Add(-time.Hour) // the budget, and what a first replay may run past it, are spent
			fs, keys := s.replayCauses(context.Background(), []checks.Finding{*fd}, []string{k})
			if c.wantSeed == 0 {
				if len(fs) != 0 || !testkit.ContainsAny(s.notes, "no time was left") || !testkit.ContainsAny(s.notes, c.wantInWhy) {
					t.Errorf("findings %+v, notes %q; want none, a note saying no time was left and %q", fs, s.notes, c.wantInWhy)
				}
				return
			}
			if len(fs) != 1 || len(keys) != 1 || len(s.notes) != 0 {
				t.Fatalf("findings %+v, notes %q; want the one, reported", fs, s.notes)
			}
			got := fs[0]
			if got.NotReplayed != checks.NotReplayedNoTime || !strings.Contains(got.Labels(), "not replayed: no time left") {
				t.Errorf("NotReplayed %q, labels %q; want %q", got.NotReplayed, got.Labels(), checks.NotReplayedNoTime)
			}
			sched, err := ReadSchedule(filepath.Join(s.opts.Dir, got.Schedule))
			if err != nil {
				t.Fatal(err)
			}
			if sched.Seed != c.wantSeed || got.Replay != "interleave replay "+got.Schedule || s.failures[k].seed != c.wantSeed {
				t.Errorf("schedule seed %d, replay %q, failure seed %d; want seed %d and its replay line", sched.Seed, got.Replay, s.failures[k].seed, c.wantSeed)
			}
		})
	}
}

// TestNoTimeLeftKernel (issue 21; the recall yardstick's tickerstopsignal
// at -j 2, go-generics-cache's TestDeleteExpired race at load): a polling
// loop left running after its test (a leak judged thousands of decisions
// after the test returned), found by a search bounded by a count, then no
// time left to replay it — the load simulated by moving the budget's hard
// stop, and what a first replay may run past it, to the search's end — is
// reported, labelled "not replayed: no time
// left", and the schedule it prints replays in a fresh process. Fails
// without unreplayed: a note, no finding.
func TestNoTimeLeftKernel(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	ctx := context.Background()
	const test = "TestStopPoller"
	res, err := Run(ctx, Options{
		Dir: dir, Patterns: []string{"./tickerstop"}, Budget: 3 * time.Minute,
		Seed: 1, SchedulesDir: t.TempDir(), Schedules: 20, Workers: 1, Build: build,
		// The budget ended, and what a first replay may run past it too.
		afterSearch: func(s *search) { s.hardStop = time.Now().Add(-replayOverrun(s.opts.Budget)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	for _, ts := range res.Stats.Tests {
		t.Logf("%s: %d schedules, %d failing, %d processes", ts.Test, ts.Schedules, ts.Failures, res.Stats.Processes)
	}
	checkFindings(ctx, t, res, findingCheck{dir: dir, build: build, Want: testkit.Want{Kinds: map[string]checks.FailureKind{test: checks.Leak}, Msgs: map[string][]string{test: {rt.LeakRunning}}}})
	for _, f := range res.Findings {
		if f.NotReplayed != checks.NotReplayedNoTime || f.Replay == "" || f.Schedule == "" {
			t.Errorf("%s: NotReplayed %q, replay %q, schedule %q; want labelled, with its replay line", f.Test, f.NotReplayed, f.Replay, f.Schedule)
		}
	}
}
