package robusttest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit/searchkit"
)

// robustDir is the nested module of awkward tests (not bug kernels).
const robustDir = "../../testdata/robust"

// Each case searches for robustBudget. robustGrace bounds how long past it
// the search may run (the schedule in flight, a watchdog cut short by the
// deadline, the processes' exit, a crash confirmed in a fresh process): a
// bound that shows the search stopped, loose enough for a loaded machine;
// the overrun itself is measured by bench/dynamic, not here.
const (
	robustBudget = 1500 * time.Millisecond
	robustGrace  = time.Minute
	// robustStep is the watchdog of the cases that want a hang reported as
	// a finding within the budget, and robustHangBudget their budget: the
	// first schedule must start and be stuck for robustStep before the
	// budget ends, with seconds to spare for a slow process start.
	robustStep       = time.Second
	robustHangBudget = 5 * time.Second
)

// robustCase is one package of testdata/robust and what searching it must
// produce.
type robustCase struct {
	name   string
	pkg    string
	run    string        // Options.Run
	budget time.Duration // 0: robustBudget
	step   time.Duration // Options.StepTimeout (0: the default)
	// want is the finding each named test must produce ("" for none);
	// wantSite is the file:line suffix of its position.
	want     map[string]checks.FailureKind
	wantSite map[string]string
	// wantNote is a substring one of the notes must contain.
	wantNote string
	// wantMsg are substrings the message of the finding of each test must
	// contain.
	wantMsg map[string][]string
	// wantPlain names the tests whose finding plain go test must fail
	// too (its label), with the file:line suffix of the failure.
	wantPlain map[string]string
	// wantPlainPasses names the tests whose finding plain go test must
	// have run and passed (exit 0).
	wantPlainPasses []string
	// clean: every schedule of every test passes, and no note names one
	// (a failure noted as the tool's counts).
	clean bool
}

var robustCases = []robustCase{
	{
		name:     "subtests",
		pkg:      "subtests",
		want:     map[string]checks.FailureKind{"TestSubtests": checks.Deadlock},
		wantSite: map[string]string{"TestSubtests": "subtests_test.go:11"},
	},
	{
		// Parallel subtests run in parallel under the scheduler: the
		// check-then-act between two of them is found.
		name:     "parallel",
		pkg:      "parallel",
		want:     map[string]checks.FailureKind{"TestParallelSubtests": "", "TestParallelSeats": checks.TestFailure},
		wantSite: map[string]string{"TestParallelSeats": "parallel_test.go:68"},
		wantMsg:  map[string][]string{"TestParallelSeats": {"two parallel subtests took the last one"}},
	},
	{
		name: "cleanup",
		pkg:  "cleanup",
		want: map[string]checks.FailureKind{
			"TestCleanupStopsWorker": "", "TestCleanupInSubtest": "",
			"TestCleanupClosesEarly": checks.Panic,
			// Registered through a helper's own interface (Tester):
			// the same, its cleanup inside the schedule.
			"TestTesterCleanupStopsWorker": "", "TestTesterCleanupClosesEarly": checks.Panic,
		},
		// The unperturbed schedule panics, and so does plain go test: a
		// finding labelled so.
		wantPlain: map[string]string{"TestCleanupClosesEarly": "cleanup_test.go:88", "TestTesterCleanupClosesEarly": "tester_test.go:41"},
	},
	{name: "testmain", pkg: "testmain", budget: time.Second, want: map[string]checks.FailureKind{"TestUsesSetup": ""}},
	{
		// A busy loop, stuck for the whole (short) watchdog: a finding
		// naming where the goroutine is.
		name:     "spin",
		pkg:      "hang",
		run:      "TestSpinOnFlag",
		step:     robustStep,
		budget:   robustHangBudget,
		want:     map[string]checks.FailureKind{"TestSpinOnFlag": checks.Fatal},
		wantSite: map[string]string{"TestSpinOnFlag": "spin_test.go:18"},
		wantMsg: map[string][]string{"TestSpinOnFlag": {
			"hang: g0 did not reach a scheduling point within ", // 1s, or more on a starved machine
			"it is at spin_test.go:18 (", "spinning without a scheduling point",
		}},
	},
	{
		// A loop computing over fresh data past the (short) watchdog:
		// slow, not stuck, so a note, no finding.
		name:     "computing",
		pkg:      "hang",
		run:      "TestComputeFresh",
		step:     robustStep,
		budget:   robustHangBudget,
		want:     map[string]checks.FailureKind{"TestComputeFresh": ""},
		wantNote: "was computing, not stuck",
	},
	{
		// A read in uninstrumented code, the same.
		name:     "blocking read",
		pkg:      "hang",
		run:      "TestReadPipe",
		step:     robustStep,
		budget:   robustHangBudget,
		want:     map[string]checks.FailureKind{"TestReadPipe": checks.Fatal},
		wantSite: map[string]string{"TestReadPipe": "block_test.go:24"},
		wantMsg:  map[string][]string{"TestReadPipe": {"it is at block_test.go:24 (IO wait: blocked outside the scheduler's control)"}},
	},
	{
		// A read blocked in uninstrumented code waits outside control:
		// its writer runs meanwhile, and the test passes.
		name: "io.Pipe",
		pkg:  "hang",
		run:  "TestIOPipe",
		step: robustStep,
		want: map[string]checks.FailureKind{"TestIOPipe": ""},
	},
	{
		// With the default watchdog (10 s), longer than the budget, the
		// hang is cut short by the deadline: a note naming the site, no
		// finding. (At 1 s, a process slow to start at load 7 was stopped
		// by the driver before its own watchdog named the site.)
		name:     "hang at the deadline",
		pkg:      "hang",
		run:      "TestSpinOnFlag",
		budget:   3 * time.Second,
		want:     map[string]checks.FailureKind{"TestSpinOnFlag": ""},
		wantNote: "it is at spin_test.go:18 (",
	},
	{
		// Objects dropped by the program are collected at runtime.GC, and
		// after the test returned, as without the tool: the shadow state
		// lets go of them, and a goroutine holding one weakly returns.
		name:  "collected",
		pkg:   "collected",
		want:  map[string]checks.FailureKind{"TestCollectedLocked": "", "TestTickerStopsWhenCollected": "", "TestDroppedWithoutGC": ""},
		clean: true,
	},
	{
		// A test that reads its own name sees go test's, under the
		// scheduler and in the plain go test run that labels the finding
		// (the plain wrapper runs it as a subtest of its own).
		name:            "own name",
		pkg:             "ownname",
		want:            map[string]checks.FailureKind{"TestOwnName": checks.TestFailure},
		wantMsg:         map[string][]string{"TestOwnName": {"n = 1 in TestOwnName"}},
		wantPlainPasses: []string{"TestOwnName"},
	},
	{
		name: "exit",
		pkg:  "exit",
		// Plain go test exits with status 3 too: a finding labelled so.
		want:      map[string]checks.FailureKind{"TestExits": checks.Fatal},
		wantPlain: map[string]string{"TestExits": "exit_test.go:18"},
	},
}

// TestRobustSearch searches each awkward package with a short budget and
// checks that the search ends on time with the expected outcome, and that
// every finding replays in a fresh process.
func TestRobustSearch(t *testing.T) {
	dir := searchkit.Module(t, robustDir, "builds, searches and replays eight packages (about a minute)")
	// One instrumentation for every case; each package's binaries are
	// built once, for its searches and its replays.
	var patterns []string
	for _, rc := range robustCases {
		patterns = append(patterns, "./"+rc.pkg)
	}
	build := searchkit.Build(t, dir, patterns)
	for _, rc := range robustCases {
		t.Run(rc.name, func(t *testing.T) {
			budget := rc.budget
			if budget == 0 {
				budget = robustBudget
			}
			// A finding or note missed in the budget (a loaded machine runs fewer
			// schedules) is searched for again with twice the budget and
			// another seed.
			res, _ := searchkit.Search(t, explore.Options{
				Dir: dir, Patterns: []string{"./" + rc.pkg}, Run: rc.run, Budget: budget, Seed: 1, StepTimeout: rc.step, Build: build,
			}, func(res *explore.Result, opts explore.Options) bool {
				if max := opts.Budget + robustGrace; res.Stats.Elapsed > max {
					t.Errorf("the search took %v, want at most %v", res.Stats.Elapsed, max)
				}
				return !testkit.AllFound(res.Findings, rc.want) || !plainFound(res, rc.wantPlain) ||
					!plainRun(res, rc.wantPlainPasses) ||
					rc.wantNote != "" && !testkit.ContainsAny(res.Notes, rc.wantNote)
			}, func(o *explore.Options) { o.Budget, o.Seed = 2*o.Budget, o.Seed+1 })
			searchkit.CheckSearched(t, res, rc.want, func(ts explore.TestStats) bool { return ts.Crashes > 0 })
			if !plainFound(res, rc.wantPlain) {
				t.Errorf("findings %+v, want those of %v labelled plain go test fails too", res.Findings, rc.wantPlain)
			}
			if rc.wantNote != "" && !testkit.ContainsAny(res.Notes, rc.wantNote) {
				t.Errorf("notes %q, want one containing %q", res.Notes, rc.wantNote)
			}
			for _, test := range rc.wantPlainPasses {
				for _, f := range res.Findings {
					if f.Test == test && (f.PlainGo == nil || f.PlainGo.Runs == 0 || f.PlainGo.Fails() || f.PlainGo.ExitCode != 0) {
						t.Errorf("%s: plain go test %+v, want run and passed", test, f.PlainGo)
					}
				}
			}
			if rc.clean {
				checkClean(t, res, rc.want)
			}
			// Every finding replays in a fresh process, on the binary
			// the search ran.
			testkit.CheckFindings(t, res.Findings, testkit.Want{
				Kinds: rc.want, Sites: rc.wantSite, Msgs: rc.wantMsg, SameLine: true,
			}, searchkit.ReplayAll(context.Background(), explore.ReplayOptions{Dir: dir, StepTimeout: rc.step, Build: build}, res.Findings))
		})
	}
}

// plainFound reports whether each test of want has a finding at the
// wanted site labelled plain go test fails too.
func plainFound(res *explore.Result, want map[string]string) bool {
	for test, site := range want {
		ok := false
		for _, f := range res.Findings {
			ok = ok || f.Test == test && strings.HasSuffix(f.Pos.String(), site) && f.PlainGo.Fails()
		}
		if !ok {
			return false
		}
	}
	return true
}

// plainRun: did plain go test run for every finding of tests (not left
// out when the budget ran out first, as on a loaded machine)?
func plainRun(res *explore.Result, tests []string) bool {
	for _, f := range res.Findings {
		if slices.Contains(tests, f.Test) && (f.PlainGo == nil || f.PlainGo.Runs == 0) {
			return false
		}
	}
	return true
}

// checkClean fails t unless every test of want ran schedules, none failed
// and no note names one.
func checkClean(t *testing.T, res *explore.Result, want map[string]checks.FailureKind) {
	t.Helper()
	for _, ts := range res.Stats.Tests {
		if _, ok := want[ts.Test]; ok && (ts.Failures > 0 || ts.Plain != "pass") {
			t.Errorf("%s: %d of %d schedules failed, unperturbed %q; want none", ts.Test, ts.Failures, ts.Schedules, ts.Plain)
		}
	}
	for test := range want {
		if testkit.ContainsAny(res.Notes, test+":") {
			t.Errorf("notes %q, want none naming %s", res.Notes, test)
		}
	}
}
