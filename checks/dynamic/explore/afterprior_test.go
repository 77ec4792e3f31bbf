package explore

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestReplaysAfterEarlierRuns: a failure that needs the state an earlier
// schedule of its test left in the process (rebootpool: the default pool
// its deferred Release closed; ants' TestRebootDefaultPool) does not
// replay alone in a fresh process, but does after that schedule: a
// finding, labelled so, whose schedule file carries the schedule run
// first and replays with the line it prints.
func TestReplaysAfterEarlierRuns(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	ctx := context.Background()
	const test = "TestRebootDefaultPool"
	// A count, not a time: a process's second schedule is the first
	// that can fail.
	res, err := Run(ctx, Options{
		Dir: dir, Patterns: []string{"./rebootpool"}, Budget: 5 * time.Minute,
		Seed: 1, SchedulesDir: t.TempDir(), Schedules: 40, Build: build,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	checkFindings(ctx, t, res, findingCheck{dir: dir, build: build, Want: testkit.Want{
		Kinds: map[string]checks.FailureKind{test: checks.TestFailure},
		Sites: map[string]string{test: "rebootpool_test.go:8"},
	}})
	for _, f := range res.Findings {
		if f.AfterEarlier == nil || f.AfterEarlier.Schedules < 1 {
			t.Fatalf("%s: labels %q, want the earlier runs it needs", f.Test, f.Labels())
		}
		if f.Frequency == nil || f.Frequency.Every() {
			t.Errorf("%s: labels %q, want schedule-dependent", f.Test, f.Labels())
		}
		sched, err := ReadSchedule(f.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		if len(sched.Prior) != f.AfterEarlier.Schedules {
			t.Fatalf("%s: schedule carries %d earlier schedules, label says %d", f.Test, len(sched.Prior), f.AfterEarlier.Schedules)
		}
		// Alone it does not fail: the earlier runs are needed.
		rep, err := newReplayer(ctx, sched, f.Schedule, ReplayOptions{Dir: dir, Build: build})
		if err != nil {
			t.Fatal(err)
		}
		alone := *sched
		alone.Prior = nil
		rr, err := rep.run(ctx, &alone, "")
		rep.close()
		if err != nil {
			t.Fatal(err)
		}
		if rr.Outcome == Reproduced {
			t.Errorf("%s: its schedule reproduced alone, without the earlier runs", f.Test)
		}
	}
}

// TestReplaysAfterOtherTests: a failure that needs the state another test
// run before it in its batch process left (rebootother: one test releases
// the default pool, the next reboots it; kcp-go's process-wide counters)
// replays after that process's earlier schedules, the other test's
// included: a finding labelled with that test, whose schedule file
// carries them and replays with the line it prints. Alone it passes.
// Counted, with an ample budget: batch processes until one failed.
func TestReplaysAfterOtherTests(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	ctx := context.Background()
	const test, other = "TestRebootAfterRelease", "TestReleaseDefaultPool"
	s, runRE, err := newSearch(Options{Dir: dir, Patterns: []string{"./rebootother"}, Budget: 10 * time.Minute, Seed: 1, Workers: 1, SchedulesDir: t.TempDir(), Build: build})
	if err != nil {
		t.Fatal(err)
	}
	if s.inst, err = build.view(ctx, s.opts); err != nil {
		t.Fatal(err)
	}
	if err := s.makeWorkDir(ctx); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(s.workDir)
	targets, err := s.selectTests(runRE)
	if err != nil {
		t.Fatal(err)
	}
	built, err := s.buildTargets(ctx, targets)
	if len(built) != 2 {
		t.Fatalf("%d tests built, want 2: %v", len(built), err)
	}
	s.startClock(built)
	s.deadline, s.hardStop = budgetEnds(s.start, s.opts.Budget)
	s.plainRuns(ctx, built)
	byName := map[string]*target{}
	for _, tg := range built {
		byName[tg.name] = tg
	}
	// As go test orders them, one schedule each per process: the
	// reboot's first schedule in a process fails on about half the seeds.
	batch := []*target{byName[other], byName[test]}
	for i := 0; i < 30 && byName[test].stats.Failures == 0; i++ {
		s.searchBatch(ctx, batch, 0, 1, time.Now().Add(5*time.Minute))
	}
	if byName[test].stats.Failures == 0 {
		t.Fatalf("%s did not fail in 30 batch processes", test)
	}
	res, err := s.report(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	checkFindings(ctx, t, res, findingCheck{dir: dir, build: build, Want: testkit.Want{
		Kinds: map[string]checks.FailureKind{test: checks.TestFailure},
		Sites: map[string]string{test: "rebootother_test.go:14"},
	}})
	for _, f := range res.Findings {
		a := f.AfterEarlier
		if a == nil || len(a.Tests) != 1 || a.Tests[0] != other {
			t.Fatalf("%s: labels %q, want the earlier run of %s it needs", f.Test, f.Labels(), other)
		}
		sched, err := ReadSchedule(f.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		if len(sched.Prior) != a.Schedules || sched.Prior[0].Test != other {
			t.Fatalf("%s: schedule carries %d earlier schedules (%+v), label says %d of %v", f.Test, len(sched.Prior), sched.Prior, a.Schedules, a.Tests)
		}
		rep, err := newReplayer(ctx, sched, f.Schedule, ReplayOptions{Dir: dir, Build: build})
		if err != nil {
			t.Fatal(err)
		}
		alone := *sched
		alone.Prior = nil
		rr, err := rep.run(ctx, &alone, "")
		rep.close()
		if err != nil {
			t.Fatal(err)
		}
		if rr.Outcome == Reproduced {
			t.Errorf("%s: its schedule reproduced alone, without the other test's run", f.Test)
		}
	}
}

// TestAfterCost: a replay after all the schedules a process ran before a
// failure runs them in one process, so it costs what they took, not a
// fresh process each (ants: 1081 schedules of about 12ms were "all of
// them would not fit" at 2×280ms each, 10 minutes, where they take 26 s
// at most). The note names the earlier failures of the process.
func TestAfterCost(t *testing.T) {
	t.Parallel()
	prior := make([]rt.Result, 1081)
	for i := range prior {
		prior[i] = rt.Result{Index: i, Seed: int64(i), Outcome: "pass", Elapsed: 12 * time.Millisecond}
	}
	prior[40].Outcome, prior[40].Site = "deadlock", "ants.go:477"
	prior[41].Outcome = "deadlock"
	per := 280 * time.Millisecond
	if got, want := afterCost(per, prior), per+2*1081*12*time.Millisecond; got != want {
		t.Errorf("afterCost = %v, want %v", got, want)
	}
	if n, first := earlierFailures(prior); n != 2 || first != "deadlock at ants.go:477 (seed 40)" {
		t.Errorf("earlierFailures = %d, %q; want 2, the deadlock of seed 40", n, first)
	}
}

// TestEarlierRunsReplayAsRecorded: a failure that needs the state earlier
// runs of its test left (sharedprovider: the first run makes the default
// provider, later runs borrow it and can lose an add), found after a run
// that was not its process's first. That run, replayed first in a fresh
// process, takes the first run's steps instead of its own: the state
// after it is not the recording's. The schedule must carry earlier runs
// that replay as recorded (here all of them, from the process's first),
// and its replay reproduces the failure with each of them on its
// schedule, every time.
func TestEarlierRunsReplayAsRecorded(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	ctx := context.Background()
	const test = "TestAddConcurrently"
	// Seed 1, one worker, 30 schedules: the failure reported comes after
	// more than one run of its process (checked below).
	res := searchBuilt(t, findingCheck{dir: dir, build: build}, []string{"./sharedprovider"}, 30)
	checkFindings(ctx, t, res, findingCheck{dir: dir, build: build, Want: testkit.Want{
		Kinds: map[string]checks.FailureKind{test: checks.TestFailure},
		Sites: map[string]string{test: "sharedprovider_test.go:8"},
	}})
	for _, f := range res.Findings {
		if f.AfterEarlier == nil {
			t.Fatalf("%s: labels %q, want the earlier runs it needs", f.Test, f.Labels())
		}
		sched, err := ReadSchedule(f.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		if len(sched.Prior) < 2 {
			t.Fatalf("%s: schedule carries %d earlier runs; the seed no longer finds it after a run that was not its process's first", f.Test, len(sched.Prior))
		}
		rep, err := newReplayer(ctx, sched, f.Schedule, ReplayOptions{Dir: dir, Build: build})
		if err != nil {
			t.Fatal(err)
		}
		defer rep.close()
		for try := 1; try <= 3; try++ {
			rr, err := rep.run(ctx, sched, f.Schedule)
			if err != nil {
				t.Fatal(err)
			}
			if len(rr.Earlier) != len(sched.Prior) {
				t.Fatalf("try %d: the replay ran %d earlier schedules, the schedule carries %d", try, len(rr.Earlier), len(sched.Prior))
			}
			if e := rr.EarlierOff(); e != nil {
				t.Errorf("try %d: earlier schedule seed %d %s", try, e.Seed, e.Off())
			}
			if rr.Outcome != Reproduced || rr.Diverged != "" {
				t.Errorf("try %d: replay %s (diverged %q), want the failure again", try, rr.Outcome, rr.Diverged)
			}
		}
		// Its last earlier run alone, first in a fresh process, leaves its
		// schedule: what main carried, and why it does not serve.
		last := *sched
		last.Prior = sched.Prior[len(sched.Prior)-1:]
		rr, err := rep.run(ctx, &last, f.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		if rr.EarlierOff() == nil {
			t.Errorf("its last earlier run, replayed first, did what it did when recorded: the kernel no longer needs more")
		}
		// An earlier run that ends otherwise than recorded, on its
		// schedule, left other state too.
		other := *sched
		other.Prior = append([]rt.Prior(nil), sched.Prior...)
		other.Prior[0].Outcome = string(checks.Deadlock)
		if rr, err = rep.run(ctx, &other, f.Schedule); err != nil {
			t.Fatal(err)
		}
		if e := rr.EarlierOff(); e == nil || e.Diverged != "" || !strings.Contains(e.Off(), "ended pass where the recording's ended deadlock") {
			t.Errorf("an earlier run recorded as a deadlock passed: off %+v, want it told", e)
		}
	}
}

// TestAfterWhy: a replay after earlier schedules counts only when it
// reproduced on its schedule with every earlier one as recorded; else
// the note says what it did, the earlier run that was off first.
func TestAfterWhy(t *testing.T) {
	t.Parallel()
	fd := &checks.Finding{Kind: checks.TestFailure, Pos: checks.Position{File: "x_test.go", Line: 9}}
	for _, c := range []struct {
		name string
		res  ReplayResult
		want string
	}{
		{"reproduced", ReplayResult{Outcome: Reproduced, Earlier: []EarlierRun{{Test: "TestX", Seed: 1, Recorded: "pass", Ended: "pass"}}}, ""},
		{"earlier left its schedule", ReplayResult{Outcome: Reproduced, Earlier: []EarlierRun{{Test: "TestX", Seed: 1, Diverged: "decision 2: x"}}}, "an earlier schedule (TestX, seed 1) left its schedule at decision 2: x"},
		{"earlier ended otherwise", ReplayResult{Outcome: Passed, Earlier: []EarlierRun{{Test: "TestY", Seed: 4, Recorded: "pass", Ended: "panic"}}}, "an earlier schedule (TestY, seed 4) ended panic where the recording's ended pass"},
		{"other failure", ReplayResult{Outcome: Different, Finding: fd, Diverged: "decision 5: y"}, "different: test-failure at x_test.go:9, diverged decision 5: y"},
	} {
		if got := afterWhy(&c.res, nil); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestLongPrefixFitsToken: a failure that needs the Limit (400) earlier
// runs of its process (longprefix: a registry's overflow counter, reached
// only after that many registrations, loses adds) is a finding whose
// token holds those runs: the oldest by their seed and a digest of their
// decisions (fitPriors), since all their decisions make more JSON than
// DecodeToken takes. The token decodes and replays, each earlier run
// making its recorded decisions; one whose seed makes others is off.
func TestLongPrefixFitsToken(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	ctx := context.Background()
	const test, limit = "TestCountConcurrently", 400
	res := searchBuilt(t, findingCheck{dir: dir, build: build}, []string{"./longprefix"}, limit+60)
	if len(res.Findings) != 1 {
		t.Fatalf("%d findings, want the lost add after %d earlier runs", len(res.Findings), limit)
	}
	f := res.Findings[0]
	if f.Test != test || f.Kind != checks.TestFailure || f.AfterEarlier == nil || f.AfterEarlier.Schedules < limit {
		t.Fatalf("finding %s %s %q after %+v, want a test failure of %s after at least %d earlier runs", f.Test, f.Kind, f.Message, f.AfterEarlier, test, limit)
	}
	sched, err := DecodeToken(f.ReplayToken)
	if err != nil {
		t.Fatalf("the finding's token (%d bytes) does not decode: %v", len(f.ReplayToken), err)
	}
	bySeed := 0
	for _, p := range sched.Prior {
		if p.BySeed() {
			bySeed++
		}
	}
	t.Logf("token: %d bytes for %d earlier runs, %d of them by seed", len(f.ReplayToken), len(sched.Prior), bySeed)
	if bySeed == 0 || sched.PriorStrategy == "" || sched.Version != rt.ScheduleVersionSeeded {
		t.Fatalf("%d of %d earlier runs by seed, strategy %q, version %d", bySeed, len(sched.Prior), sched.PriorStrategy, sched.Version)
	}
	rep, err := newReplayer(ctx, sched, "", ReplayOptions{Dir: dir, Build: build})
	if err != nil {
		t.Fatal(err)
	}
	defer rep.close()
	rr, err := rep.run(ctx, sched, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Earlier) != len(sched.Prior) {
		t.Fatalf("the replay ran %d earlier schedules, the token carries %d", len(rr.Earlier), len(sched.Prior))
	}
	if e := rr.EarlierOff(); e != nil {
		t.Errorf("earlier schedule seed %d %s", e.Seed, e.Off())
	}
	if rr.Outcome != Reproduced || rr.Diverged != "" {
		t.Errorf("token replay %s (diverged %q), want the failure again", rr.Outcome, rr.Diverged)
	}
	// A replay its estimated deadline stopped while the budget had time
	// left runs again (replayWithin; here the deadline has passed before
	// it starts); with no time left it does not.
	if rr, stopped, err := replayWithin(ctx, rep, sched, "", time.Now(), time.Now().Add(5*time.Minute)); stopped || err != nil || rr.Outcome != Reproduced {
		t.Errorf("a replay stopped by its deadline with the budget's time left: stopped %v, error %v, want it run again and reproduced", stopped, err)
	}
	if _, stopped, _ := replayWithin(ctx, rep, sched, "", time.Now(), time.Now()); !stopped {
		t.Errorf("a replay stopped by its deadline at the budget's end ran again")
	}
	// A run by seed is checked: another seed makes other decisions.
	other := *sched
	other.Prior = append([]rt.Prior(nil), sched.Prior...)
	for i := range other.Prior {
		if other.Prior[i].BySeed() {
			other.Prior[i].Seed += 1 << 20
			break
		}
	}
	if rr, err = rep.run(ctx, &other, ""); err != nil {
		t.Fatal(err)
	}
	if e := rr.EarlierOff(); e == nil || !strings.Contains(e.Off(), "run from its seed, it made") {
		t.Errorf("an earlier run by another seed: off %+v, want its decisions told apart", e)
	}
}
