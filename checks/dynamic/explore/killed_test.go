package explore

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestKilledBetween (issue 21, ants): a process killed outside any
// schedule is called hung only when it had written nothing for the
// watchdog's time; one stopped by the end of its share a moment after its
// last output (between schedules, or exiting after PASS) is not.
func TestKilledBetween(t *testing.T) {
	t.Parallel()
	step := 10 * time.Second
	busy := &childOutcome{killed: true, started: 3, quiet: 300 * time.Millisecond, stdout: "=== RUN   TestInterleaveDriver/schedule-2\n"}
	if n := busy.killedBetween("TestX", step, "tail"); strings.Contains(n, "hung") || !strings.Contains(n, "stopped at the end of its share of the budget between schedules") {
		t.Errorf("note %q, want stopped between schedules, not hung", n)
	}
	exiting := &childOutcome{killed: true, started: 3, quiet: time.Second, stdout: "--- PASS: TestInterleaveDriver (1.2s)\nPASS\n"}
	if n := exiting.killedBetween("TestX", step, "tail"); strings.Contains(n, "hung") || !strings.Contains(n, "while exiting after its last schedule (it had printed PASS)") {
		t.Errorf("note %q, want stopped while exiting", n)
	}
	silent := &childOutcome{killed: true, started: 3, quiet: 12 * time.Second}
	if n := silent.killedBetween("TestX", step, "tail"); !strings.Contains(n, "hung outside any schedule: it had written nothing for 12s") {
		t.Errorf("note %q, want hung, silent for 12s", n)
	}
}

// TestKilledBeforeStart (TestOldDependencies at load): a process killed
// before its first schedule is called hung only when it had written
// nothing for the watchdog's time; one the end of its share stopped
// sooner (a slow start on a loaded machine) is not, and a search whose
// processes all ended so fails with ErrNoScheduleInBudget, which a
// larger budget cures. One hung process among them makes it a hang.
func TestKilledBeforeStart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	step := 5 * time.Second
	search := func(quiet ...time.Duration) error {
		s := &search{opts: Options{StepTimeout: step}}
		for _, q := range quiet {
			out := &childOutcome{killed: true, crashed: -1, leftovers: -1, lastRun: -1, quiet: q, stdout: "(quiet)"}
			if next, more := s.afterProcess(ctx, &target{name: "TestX", stats: &TestStats{}}, out, time.Now()); next != 0 || more {
				t.Errorf("afterProcess = %d, %v; want 0, false", next, more)
			}
		}
		return s.searchErr(ctx)
	}
	err := search(2 * time.Second)
	if !errors.Is(err, ErrNoScheduleInBudget) || strings.Contains(err.Error(), "hung") || !strings.Contains(err.Error(), "before its first schedule, 2s after its last output: not seen hanging") {
		t.Errorf("stopped after 2s of quiet: err = %v, want ErrNoScheduleInBudget, not hung", err)
	}
	for _, quiet := range [][]time.Duration{{6 * time.Second}, {2 * time.Second, 6 * time.Second}} {
		err := search(quiet...)
		if err == nil || errors.Is(err, ErrNoScheduleInBudget) || !strings.Contains(err.Error(), "hung before its first schedule (in TestMain or a package's initialization?): it had written nothing for 6s") {
			t.Errorf("quiet %v: err = %v, want the process that hung", quiet, err)
		}
	}
}

// TestFakeExitSlow: the fake's processes fail their first schedule and
// then do not exit; the driver kills them at the end of their share. The
// failure counts (the unperturbed run's too: its schedule had ended), and
// the note says the process was stopped while exiting, not that it hung.
// Nothing here waits for a machine to be quick: the fake's first result
// is written long before the kill, and the kill is the same whenever it
// comes.
func TestFakeExitSlow(t *testing.T) {
	// In parallel: its fake processes sleep until stopped (wall time, no CPU), and it
	// shares no state with other tests (its own search, temporary
	// directories, the fake built once).
	t.Parallel()
	bin := buildFake(t)
	dir := t.TempDir()
	opts := Options{Dir: dir, Budget: time.Minute, Workers: 1}
	if err := normalize(&opts); err != nil {
		t.Fatal(err)
	}
	s := &search{opts: opts, failures: map[string]*failure{}, owners: map[string]*target{}, workDir: t.TempDir(), goVersion: "go1.test", noReplayCheck: true}
	tg := &target{pkg: rewrite.Package{ImportPath: "example.com/k", Dir: dir, Tests: []string{"TestExitSlow"}}, name: "TestExitSlow", weight: 1, bin: bin, relDir: "k", stats: &TestStats{}}
	s.deadline, s.hardStop = budgetEnds(time.Now(), opts.Budget)
	s.plainBins = map[string]*plainBin{tg.pkg.ImportPath: {err: errBudgetOut, done: closed()}} // no plain go test here
	s.plainRun(context.Background(), tg, 4*time.Second)
	if tg.stats.Plain != string(checks.TestFailure) || tg.stopReason != "" {
		t.Errorf("unperturbed run: outcome %q, stopped %q; want its failure, not stopped", tg.stats.Plain, tg.stopReason)
	}
	if len(s.failures) != 1 {
		t.Fatalf("failures %v, want the unperturbed run's", s.failures)
	}
	for _, f := range s.failures {
		if f.kind != checks.TestFailure || f.site != "/src/k/k_test.go:50" {
			t.Errorf("failure %s at %s, want test-failure at k_test.go:50", f.kind, f.site)
		}
	}
	var hung, stopped bool
	for _, n := range s.notes {
		hung = hung || strings.Contains(n, "hung")
		stopped = stopped || strings.Contains(n, "TestExitSlow: the test process was stopped at the end of its share of the budget while exiting after its last schedule (it had printed PASS)")
	}
	if hung || !stopped {
		t.Errorf("notes %q, want one saying the process was stopped while exiting, none saying it hung", s.notes)
	}

	// A whole search: the workers' processes end the same way.
	res, _, err := fakeSearch(t, "TestExitSlow", fakeBudget)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Kind != checks.TestFailure {
		t.Errorf("findings %+v, want the test failure", res.Findings)
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "hung") {
			t.Errorf("note %q: a process stopped at the end of its share is not hung", n)
		}
	}
}

// TestReplayStuckExit: a confirming replay whose schedule ended, failing
// as recorded, but whose process did not exit before the replay's time
// ran out, confirms the finding (it was dropped for want of time).
func TestReplayStuckExit(t *testing.T) {
	// In parallel: its time is the fake's replays sleeping (no CPU), and
	// it shares no state with other tests (its own search and temporary
	// directories, no environment).
	t.Parallel()
	s, tg, fd := fakeFinding(t, "TestExitSlow", &failure{kind: checks.TestFailure, message: "test failed: send: closed", site: "/src/k/k_test.go:50",
		seed: 1, strategy: "random", decisions: []rt.Decision{{G: 0, Site: "x.go:1", Op: "go"}}})
	// The replays' time: the fake never exits, so each replay takes it all.
	s.hardStop = time.Now().Add(5 * time.Second)
	if why, unchecked := s.replaysAlone(context.Background(), tg, fd, nil); why != "" || unchecked {
		t.Errorf("replaysAlone = %q, %v; want reproduced", why, unchecked)
	}
	// Without a deadline (interleave replay) the replay does not wait for
	// its minute: the process is stopped soon after its schedule ended.
	// (Any bound far below the minute shows it, whatever the machine.)
	sched, err := ReadSchedule(filepath.Join(s.opts.Dir, fd.Schedule))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := s.replayer(tg).run(context.Background(), sched, "")
	if err != nil || res.Outcome != Reproduced {
		t.Fatalf("replay = %+v, %v; want reproduced", res, err)
	}
	if d := time.Since(start); d > 45*time.Second {
		t.Errorf("the replay took %v: it waited for a process that does not exit", d)
	}
}

func closed() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// TestStuckCutShort: a searched schedule whose watchdog the end of its
// share cut short (under the full step timeout) is stopped unfinished,
// inconclusive, and counted; the unperturbed schedule cut short the same
// way gets a note; one stuck for the full timeout is a finding.
func TestStuckCutShort(t *testing.T) {
	t.Parallel()
	opts := Options{Dir: t.TempDir(), Budget: time.Minute, StepTimeout: 5 * time.Second}
	if err := normalize(&opts); err != nil {
		t.Fatal(err)
	}
	hang := func(watchdog time.Duration) rt.Result {
		return rt.Result{Outcome: string(checks.Fatal), Message: rt.MarkerWatchdog + "g0 did not reach a scheduling point within 450ms", Site: "/m/poll.go:29", Seed: 7, Watchdog: watchdog}
	}
	for _, tc := range []struct {
		name          string
		strategy      string
		watchdog      time.Duration
		finding, note bool
		stopped       int
	}{
		{"searched, cut short", "random", 450 * time.Millisecond, false, false, 1},
		{"unperturbed, cut short", rt.PlainStrategy, 450 * time.Millisecond, false, true, 0},
		{"searched, full timeout", "random", 5 * time.Second, true, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &search{opts: opts, failures: map[string]*failure{}, owners: map[string]*target{}}
			tg := &target{name: "TestPoll", stats: &TestStats{Crashes: 1}, plainKeys: map[string]bool{}}
			f := s.stuck(tg, hang(tc.watchdog), "", tc.strategy, 0)
			if (f != nil) != tc.finding {
				t.Errorf("finding %v, want %v", f != nil, tc.finding)
			}
			if (len(s.notes) > 0) != tc.note {
				t.Errorf("notes %q, want a note: %v", s.notes, tc.note)
			}
			if tg.stats.Stopped != tc.stopped {
				t.Errorf("stopped %d, want %d", tg.stats.Stopped, tc.stopped)
			}
		})
	}
}

// TestStuckButComputing: a schedule the full watchdog ended while the
// goroutine it waited for was computing, not stuck (rt's Progress:
// coder/websocket's TestMask, a race-instrumented loop past the watchdog
// at load), is no finding: a note naming the load, and a searched
// schedule counted stopped. The same hang without progress stays one.
func TestStuckButComputing(t *testing.T) {
	t.Parallel()
	opts := Options{Dir: t.TempDir(), Budget: time.Minute, StepTimeout: 5 * time.Second}
	if err := normalize(&opts); err != nil {
		t.Fatal(err)
	}
	for _, strategy := range []string{"random", rt.PlainStrategy} {
		for _, progress := range []bool{true, false} {
			s := &search{opts: opts, failures: map[string]*failure{}, owners: map[string]*target{}}
			tg := &target{name: "TestMask", stats: &TestStats{Crashes: 1}, plainKeys: map[string]bool{}}
			r := rt.Result{Outcome: string(checks.Fatal), Message: rt.MarkerWatchdog + "g1 did not reach a scheduling point within 5s since start; it is at mask_test.go:40 (running: computing or spinning without a scheduling point)",
				Site: "/m/mask_test.go:40", Seed: 7, Watchdog: 5 * time.Second, Progress: progress}
			f := s.stuck(tg, r, "", strategy, 0)
			if (f != nil) == progress {
				t.Errorf("%s, progress %v: finding %v", strategy, progress, f != nil)
			}
			if progress && !testkit.ContainsAny(s.notes, "computing, not stuck") {
				t.Errorf("%s: notes %q, want one saying it was computing", strategy, s.notes)
			}
			if wantStopped := progress && strategy != rt.PlainStrategy; (tg.stats.Stopped == 1) != wantStopped {
				t.Errorf("%s, progress %v: stopped %d", strategy, progress, tg.stats.Stopped)
			}
		}
	}
}
