package realsuitetest

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit/searchkit"
)

// realsuiteDrvDir is the nested module of the driver's real-suite kernels
// (issue 14): each package is a false alarm the driver used to raise.
const realsuiteDrvDir = "../../testdata/realsuite-drv"

// drvBudget is the budget of a case that names none (explore's
// robustBudget).
const drvBudget = 1500 * time.Millisecond

// drvCase is one package of testdata/realsuite-drv and what searching it
// must produce.
type drvCase struct {
	name    string
	pkg     string
	budget  time.Duration
	step    time.Duration // Options.StepTimeout (0: the default)
	workers int           // Options.Workers (0: the default)
	// schedules is Options.Schedules: a case that must find a failure
	// by searching bounds the search by a count, with a budget ample
	// for it on a loaded machine.
	schedules int
	// want is the finding each named test must produce ("" for none);
	// wantSite is the file:line suffix of its position ("|" between
	// alternatives), wantMsg substrings of its message ({step} stands
	// for the watchdog used).
	want     map[string]checks.FailureKind
	wantSite map[string]string
	wantMsg  map[string][]string
	// wantPlain names the tests whose findings (of their want kind) are
	// labelled with plain go test's outcome: whether it fails too.
	wantPlain map[string]bool
	// many names the tests that may have several findings of their kind.
	many map[string]bool
	// notSearched names the tests that may run no schedule.
	notSearched map[string]bool
	check       func(t *testing.T, res *explore.Result)
	// machineLock names a resource of the whole machine the package
	// takes (a fixed port): another copy of this test on the machine
	// would take it too, so they take turns (testkit.LockMachine).
	machineLock string
}

var drvCases = []drvCase{
	{
		// New M: a failure that only state left by an earlier schedule
		// in the same process causes (a driver registered twice with
		// database/sql) does not replay alone in a fresh process,
		// but does after that schedule: a finding, labelled as needing
		// the earlier run (as go test -count=2 meets it), whose schedule
		// file carries the run and replays with its printed line.
		name: "process-wide state",
		pkg:  "globalstate",
		// A process's second schedule fails: a count, not the time a
		// loaded machine leaves after the first.
		budget:    3 * time.Minute,
		schedules: 3,
		want:      map[string]checks.FailureKind{"TestRegisterHandler": checks.Panic},
		wantSite:  map[string]string{"TestRegisterHandler": "globalstate_test.go:15"},
		check: func(t *testing.T, res *explore.Result) {
			for _, f := range res.Findings {
				if f.AfterEarlier == nil {
					t.Errorf("%s: labels %q, want the earlier run it needs", f.Test, f.Labels())
				}
			}
		},
	},
	{
		// Every finding replays: two worker processes bind one fixed
		// port at once and one fails; alone in a fresh process its
		// schedule passes, so it is a note, not a finding.
		name:        "fixed port",
		pkg:         "fixedport",
		workers:     2,
		machineLock: "port-47913",
		want:        map[string]checks.FailureKind{"TestEchoOnFixedPort": ""},
		check: func(t *testing.T, res *explore.Result) {
			for _, n := range res.Notes {
				if strings.Contains(n, "run alone in a fresh process did not") {
					t.Log("the bind failed in a worker and did not replay alone:", n)
				}
			}
		},
	},
	{
		// Mechanism 6: the test re-runs its binary with -test.run=t.Name();
		// the child must run the test plainly, and its os.Exit(3) is what
		// the parent expects, not a finding.
		name: "child process",
		pkg:  "childproc",
		want: map[string]checks.FailureKind{"TestExitsWithThree": ""},
	},
	{
		// Mechanism 13: a goroutine the scheduler never saw holds a
		// package-level mutex after the test; the next schedule runs in a
		// fresh process instead of hanging on it.
		name: "leftovers",
		pkg:  "leftover",
		step: time.Second,
		want: map[string]checks.FailureKind{"TestLeavesLockedWatcher": ""},
		check: func(t *testing.T, res *explore.Result) {
			for _, ts := range res.Stats.Tests {
				// Each process runs one schedule and refuses the next: a
				// worker that ran more than one process did so because of
				// the leftovers.
				if ts.Schedules-1 > runtime.GOMAXPROCS(0) && ts.Fresh == 0 {
					t.Errorf("%s: %d schedules and no fresh process for leftovers", ts.Test, ts.Schedules)
				}
			}
		},
	},
	{
		// Issue 23: a janitor goroutine outside control on a ticker of
		// its own schedule, never stopped, is kept parked beside the
		// next schedules: no fresh process per schedule (a process keeps
		// up to 256 of them).
		name: "leftovers kept out of the way",
		pkg:  "janitor",
		// A count, not the default budget: a loaded machine ran 4
		// schedules in 400ms of batches, none beside a kept janitor.
		schedules: 64,
		budget:    time.Minute,
		want:      map[string]checks.FailureKind{"TestWithJanitor": "", "TestWithoutJanitor": ""},
		check: func(t *testing.T, res *explore.Result) {
			workers := runtime.GOMAXPROCS(0)
			for _, ts := range res.Stats.Tests {
				if ts.Test != "TestWithJanitor" {
					continue
				}
				if ts.Schedules < 2*workers {
					t.Skipf("%s: %d schedules, too few to tell", ts.Test, ts.Schedules)
				}
				if ts.Fresh > ts.Schedules/256+workers || ts.Kept == 0 {
					t.Errorf("%s: %d schedules, %d fresh processes for leftovers, %d beside kept ones; want one process per worker and 256 schedules", ts.Test, ts.Schedules, ts.Fresh, ts.Kept)
				}
			}
		},
	},
	{
		// Issue 23: a leftover kept as parked (blocked sending on a
		// package-level channel) is reached by the next schedule, which
		// fails; alone in a fresh process it passes: a note, not a
		// finding, and the process after it is fresh.
		name:   "kept leftover that interferes",
		pkg:    "stalemsg",
		budget: 4 * time.Second,
		want:   map[string]checks.FailureKind{"TestStaleMessage": ""},
		check: func(t *testing.T, res *explore.Result) {
			for _, n := range res.Notes {
				if strings.HasPrefix(n, "TestStaleMessage: not reported") {
					return
				}
			}
			for _, ts := range res.Stats.Tests {
				if ts.Schedules >= 2 {
					t.Errorf("%s: %d schedules, notes %q; want one saying the stale message's failure did not replay alone", ts.Test, ts.Schedules, res.Notes)
				}
			}
		},
	},
	{
		// Mechanism 11, issue 21: a leak on every schedule, the
		// unperturbed one included, that plain go test leaves too (exit
		// 0) is a finding labelled so; a failure plain go test has too
		// is a finding labelled "fails too"; one it does not have on the
		// unperturbed schedule is the tool's, a note.
		name:      "fails without interleave too",
		pkg:       "hygiene",
		budget:    3 * time.Minute,
		schedules: 10,
		want: map[string]checks.FailureKind{
			"TestForgetsClose": checks.Leak, "TestDropsReply": checks.Leak,
			"TestLeaksOnlyUnderTheTool": "", "TestFailsByItself": checks.TestFailure,
		},
		wantSite:  map[string]string{"TestDropsReply": "hygiene_test.go:64"},
		wantPlain: map[string]bool{"TestForgetsClose": false, "TestFailsByItself": true},
		check: func(t *testing.T, res *explore.Result) {
			// Decided by plain go test: the leak it does not have is
			// the tool's, in a note.
			noted := false
			for _, n := range res.Notes {
				if strings.HasPrefix(n, "TestLeaksOnlyUnderTheTool: not reported, most likely the tool's doing") &&
					strings.Contains(n, "plain go test") && strings.Contains(n, "passed") {
					noted = true
				}
			}
			if !noted {
				t.Errorf("no note says TestLeaksOnlyUnderTheTool's leak is the tool's: %q", res.Notes)
			}
			// The failure's words are the assertion's, not the log
			// line before it.
			for _, f := range res.Findings {
				if f.Test == "TestFailsByItself" && !strings.Contains(f.Message, "hygiene_test.go:91: Get(a) = 0, want 1") {
					t.Errorf("TestFailsByItself: message %q, want the Errorf's", f.Message)
				}
				if f.Test == "TestFailsByItself" && (!f.Frequency.Every() || !strings.Contains(f.PlainGo.Label(), "exit 1: hygiene_test.go:91: Get(a) = 0, want 1")) {
					t.Errorf("TestFailsByItself: labels %q, want every schedule and plain go test's exit 1 with its failure line", f.Labels())
				}
				if f.Test == "TestForgetsClose" && !strings.HasPrefix(f.PlainGo.Label(), "plain go test passes (exit 0") {
					t.Errorf("TestForgetsClose: label %q, want plain go test passes (exit 0)", f.PlainGo.Label())
				}
			}
		},
	},
	{
		// Issue 21: the unperturbed schedule fails, plain go test passes,
		// other schedules pass: a finding labelled "plain go test passes",
		// never "fails too" (the message claimed so before). And every
		// schedule fails, three runs of plain go test pass, a stress run
		// of it fails the same way: the test's own failure, a finding
		// labelled with the stress run, not a note naming the tool.
		name: "unperturbed fails, plain go test passes or fails under stress",
		pkg:  "unperturbed",
		// A count: the default budget, run out on a loaded machine
		// (load 37) by the search, left none for plain go test's label.
		budget:    3 * time.Minute,
		schedules: 6,
		want: map[string]checks.FailureKind{
			"TestMainWinsUnderTheTool": checks.TestFailure, "TestRareUnderGoTest": checks.TestFailure,
		},
		wantSite: map[string]string{
			"TestMainWinsUnderTheTool": "unperturbed_test.go:18|unperturbed_test.go:28", "TestRareUnderGoTest": "unperturbed_test.go:42",
		},
		wantPlain: map[string]bool{"TestMainWinsUnderTheTool": false, "TestRareUnderGoTest": true},
		check: func(t *testing.T, res *explore.Result) {
			for _, f := range res.Findings {
				switch f.Test {
				case "TestMainWinsUnderTheTool":
					if strings.Contains(f.Message, "fails this way too") || f.Frequency.Every() || !strings.HasPrefix(f.PlainGo.Label(), "plain go test passes (exit 0") {
						t.Errorf("%s: message %q, labels %q, want schedule-dependent, plain go test passes", f.Test, f.Message, f.Labels())
					}
				case "TestRareUnderGoTest":
					if !f.Frequency.Every() || !strings.HasPrefix(f.PlainGo.Label(), "plain go test fails too (1 of 1 run of go test -count=") ||
						!strings.Contains(f.PlainGo.Label(), "-failfast -run '^TestRareUnderGoTest$': exit 1: unperturbed_test.go:44: running workers") {
						t.Errorf("%s: labels %q, want every schedule, plain go test failing in its stress run", f.Test, f.Labels())
					}
				}
			}
		},
	},
	{
		// Mechanism 11, goroutines still running: a job the test never
		// stops runs on after it, in whichever worker took it (a key of
		// its own per worker), behind a janitor a starving strategy
		// would keep from ending. Plain go test leaves it running too:
		// the test's own clean-up, on every schedule: a finding labelled
		// so (issue 21). Goroutines blocked forever are a finding though
		// plain go test leaves them too.
		name: "left running as under plain go test",
		pkg:  "leftrunning",
		// A count: a 4 s budget, run out on a loaded machine (load 45)
		// after the unperturbed runs, searched nothing and left no time
		// for plain go test's label.
		budget:    3 * time.Minute,
		schedules: 10,
		want: map[string]checks.FailureKind{
			"TestLeavesLongJob": checks.Leak, "TestGivesUpOnReply": checks.Leak,
		},
		wantSite:  map[string]string{"TestGivesUpOnReply": "leftrunning_test.go:83"},
		wantMsg:   map[string][]string{"TestGivesUpOnReply": {"leak: goroutines still blocked after the test returned"}},
		wantPlain: map[string]bool{"TestLeavesLongJob": false},
		many:      map[string]bool{"TestLeavesLongJob": true}, // one per worker left running
		check: func(t *testing.T, res *explore.Result) {
			for _, f := range res.Findings {
				if f.Test == "TestLeavesLongJob" && (!strings.Contains(f.Message, "leak: goroutines still running after the test returned") ||
					!strings.Contains(f.PlainGo.Label(), "leaving the same goroutines behind")) {
					t.Errorf("%s: message %q, label %q, want a running leak plain go test leaves too", f.Test, f.Message, f.PlainGo.Label())
				}
			}
		},
	},
	{
		// Mechanism 9: a call that never returns, on every schedule; the
		// test's share of the budget is shorter than the watchdog, but the
		// unperturbed run has the full watchdog: a finding with its stack.
		// The budget pays that watchdog and two replays of it alone.
		name:   "real hang",
		pkg:    "realhang",
		budget: 6 * time.Second,
		step:   time.Second,
		want: map[string]checks.FailureKind{
			"TestFieldsInBackground": checks.Fatal,
			"TestSplit1":             "", "TestSplit2": "", "TestSplit3": "", "TestSplit4": "",
			"TestSplit5": "", "TestSplit6": "", "TestSplit7": "",
		},
		wantSite: map[string]string{"TestFieldsInBackground": "realhang_test.go:32"},
		wantMsg: map[string][]string{"TestFieldsInBackground": {
			"hang: g2 did not reach a scheduling point within ", // {step}, or more on a starved machine
			"on the unperturbed schedule too",
		}},
	},
	{
		// Senders parked on one channel at the same virtual time: the
		// unperturbed schedule pairs the one that queued first, as the
		// runtime does, and passes (it paired the one made first and
		// failed: ratelimit's TestInitial); the search pairs either and
		// finds the test that reads them in turn order. A count, as for
		// dedupe.
		name:      "senders paired first in, first out",
		pkg:       "queueorder",
		budget:    3 * time.Minute,
		schedules: 40,
		want: map[string]checks.FailureKind{
			"TestReportsInTurnOrder": checks.TestFailure, "TestReportsByTurn": "",
		},
		wantSite: map[string]string{"TestReportsInTurnOrder": "queueorder_test.go:40"},
		check: func(t *testing.T, res *explore.Result) {
			for _, ts := range res.Stats.Tests {
				if ts.Plain != "pass" {
					t.Errorf("%s: unperturbed schedule %q, want pass", ts.Test, ts.Plain)
				}
			}
			for _, f := range res.Findings {
				if f.Frequency.Every() {
					t.Errorf("%s: labels %q, want schedule-dependent", f.Test, f.Labels())
				}
			}
		},
	},
	{
		// Mechanism 10: the producer leaks at one of two sends: one
		// finding.
		name: "dedupe by signature",
		pkg:  "dedupe",
		// A count, as for left running: a loaded machine's budget may
		// end before the search.
		budget:    3 * time.Minute,
		schedules: 40,
		want:      map[string]checks.FailureKind{"TestLookupCanceled": checks.Leak},
		wantSite:  map[string]string{"TestLookupCanceled": "dedupe_test.go:21|dedupe_test.go:23"},
	},
	{
		// Mechanism 8: every test runs schedules, and the counts add up.
		// TestSleepsForReal's unperturbed run (2 s of real time) is
		// longer than its part of the first third of the budget (1 s,
		// batchLimit's least), and than what a retry within a third of
		// the rest gave it: it must get more and run to its end, though
		// TestAlongNaps, which comes first, would take all the rest of
		// the budget (100 s). That one is not searched, and its note
		// says so.
		name: "budget",
		pkg:  "budget",
		// The rounds for stopped tests end at two thirds of the
		// budget: 7 s to 14 s, room for TestSleepsForReal's 2 s and
		// more for TestAlongNaps one after the other.
		budget:  21 * time.Second,
		workers: 1,
		want: map[string]checks.FailureKind{
			"TestSlowDigests": "", "TestFast1": "", "TestFast2": "", "TestFast3": "",
			"TestFast4": "", "TestFast5": "", "TestFast6": "", "TestSleepsForReal": "", "TestAlongNaps": "",
		},
		notSearched: map[string]bool{"TestAlongNaps": true},
		check: func(t *testing.T, res *explore.Result) {
			for _, n := range res.Notes {
				if strings.Contains(n, "not searched") && !strings.HasPrefix(n, "TestAlongNaps: not searched: its unperturbed run did not finish in the ") {
					t.Errorf("note %q, want every unperturbed run but TestAlongNaps's to finish", n)
				}
			}
			sum := 0
			for _, ts := range res.Stats.Tests {
				sum += ts.Schedules
				if ts.Test == "TestAlongNaps" {
					if ts.Plain == "pass" || ts.Cost != 0 {
						t.Errorf("%s: unperturbed run %q, cost %v; want it stopped", ts.Test, ts.Plain, ts.Cost)
					}
					continue
				}
				if ts.Plain != "pass" {
					t.Errorf("%s: unperturbed run %q, want pass", ts.Test, ts.Plain)
				}
				if ts.Cost <= 0 {
					t.Errorf("%s: no measured cost", ts.Test)
				}
			}
			if sum != res.Stats.Schedules {
				t.Errorf("per-test schedules add up to %d, total %d", sum, res.Stats.Schedules)
			}
		},
	},
	{
		// Mechanism 8 (and G): each schedule waits about a second of
		// real time in a poll-until-true helper of a module left as
		// written (as testify's Eventually does); a schedule started
		// just before the end of its test's share runs to its end
		// instead of being called stuck when its start deadline passes.
		name:   "poll helper outside control",
		pkg:    "poller",
		budget: 12 * time.Second,
		want:   map[string]checks.FailureKind{"TestPoll1": "", "TestPoll2": "", "TestPoll3": "", "TestPoll4": ""},
		check: func(t *testing.T, res *explore.Result) {
			for _, n := range res.Notes {
				if strings.Contains(n, "budget ran out") || strings.Contains(n, "not searched") {
					t.Errorf("note %q, want none", n)
				}
			}
		},
	},
}

// TestRealSuiteDriver searches each kernel of the driver's real-suite
// mechanisms and checks the outcome; every finding replays in a fresh
// process. (The case that moves the hard stop is explore's own
// TestRealSuiteDriver: it needs the search's internals.)
func TestRealSuiteDriver(t *testing.T) {
	dir := searchkit.Module(t, realsuiteDrvDir, "builds, searches and replays fourteen packages")
	// One instrumentation for every case; each package's binaries are
	// built once, for its search and its replays.
	var patterns []string
	for _, dc := range drvCases {
		patterns = append(patterns, "./"+dc.pkg)
	}
	build := searchkit.Build(t, dir, patterns)
	for _, dc := range drvCases {
		t.Run(dc.name, func(t *testing.T) {
			budget := dc.budget
			if budget == 0 {
				budget = drvBudget
			}
			if dc.machineLock != "" {
				testkit.LockMachine(t, dc.machineLock)
			}
			// A finding missed because the budget ran out first, or left
			// no time to replay it alone (a loaded machine starts
			// processes late and its watchdog fires late), or an
			// unperturbed run stopped for want of budget, is searched for
			// again with the budget 2.5 times and the watchdog 1.5 times
			// as long: more watchdogs fit in the budget each time.
			res, opts := searchkit.Search(t, explore.Options{
				Dir: dir, Patterns: []string{"./" + dc.pkg}, Budget: budget,
				Seed: 1, StepTimeout: dc.step, Workers: dc.workers, Schedules: dc.schedules, Build: build,
			}, func(res *explore.Result, _ explore.Options) bool {
				return testkit.ContainsAny(res.Notes, "the budget ran out before it could run with more") ||
					!testkit.AllFound(res.Findings, dc.want) &&
						(testkit.ContainsAny(res.Notes, "the budget ran out") || testkit.ContainsAny(res.Notes, "no time was left in the budget"))
			}, func(o *explore.Options) { o.Budget, o.StepTimeout = o.Budget*5/2, o.StepTimeout*3/2 })
			step := opts.StepTimeout
			searchkit.CheckSearched(t, res, dc.want, func(ts explore.TestStats) bool { return dc.notSearched[ts.Test] })
			testkit.CheckPlain(t, res.Findings, dc.want, dc.wantPlain)
			if dc.check != nil {
				dc.check(t, res)
			}
			// Every finding replays in a fresh process, on the binary
			// the search ran.
			testkit.CheckFindings(t, res.Findings, testkit.Want{
				Kinds: dc.want, Sites: dc.wantSite, Msgs: testkit.WithStep(dc.wantMsg, step), Many: dc.many,
			}, searchkit.ReplayAll(context.Background(), explore.ReplayOptions{Dir: dir, StepTimeout: step, Build: build}, res.Findings))
		})
	}
}
