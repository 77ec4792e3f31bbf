package explore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// realsuiteDrvDir is the nested module of the driver's real-suite kernels
// (issue 14): each package is a false alarm the driver used to raise.
const realsuiteDrvDir = "../testdata/realsuite-drv"

// drvCase is one package of testdata/realsuite-drv and what searching it
// must produce.
type drvCase struct {
	name    string
	pkg     string
	budget  time.Duration
	step    time.Duration // Options.StepTimeout (0: the default)
	workers int           // Options.Workers (0: the default)
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
	check       func(t *testing.T, res *Result)
	// atHardStop: the search's hard stop is moved to its end, as when a
	// loaded machine ends the search late.
	atHardStop bool
	// machineLock names a resource of the whole machine the package
	// takes (a fixed port): another copy of this test on the machine
	// would take it too, so they take turns (lockMachine).
	machineLock string
}

var drvCases = []drvCase{
	{
		// New M: a failure that only state left by an earlier schedule
		// in the same process causes (a handler registered twice on
		// http.DefaultServeMux) does not replay alone in a fresh process:
		// a note, not a finding; so is one whose replay alone the end of
		// the budget cut (a loaded machine): every finding replays.
		name:   "process-wide state",
		pkg:    "globalstate",
		budget: 5 * time.Second,
		want:   map[string]checks.FailureKind{"TestRegisterHandler": ""},
		check: func(t *testing.T, res *Result) {
			for _, n := range res.Notes {
				if strings.Contains(n, "run alone in a fresh process did not") {
					return
				}
				if strings.Contains(n, "must replay alone in a fresh process and no time was left") {
					t.Log("the replay check found no time left:", n)
					return
				}
			}
			t.Errorf("notes %q, want one for the schedule that failed only after another", res.Notes)
		},
	},
	{
		// The same when the search ends at its hard stop, the end of
		// the budget (a loaded machine): the replay alone still runs
		// (a true failure is never dropped for want of it) and does not
		// reproduce, so it is a note.
		name:       "process-wide state at the hard stop",
		pkg:        "globalstate",
		atHardStop: true,
		want:       map[string]checks.FailureKind{"TestRegisterHandler": ""},
		check: func(t *testing.T, res *Result) {
			for _, n := range res.Notes {
				if strings.Contains(n, "run alone in a fresh process did not") ||
					strings.Contains(n, "must replay alone in a fresh process and no time was left") {
					return
				}
			}
			t.Errorf("notes %q, want one for the schedule that failed only after another", res.Notes)
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
		check: func(t *testing.T, res *Result) {
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
		check: func(t *testing.T, res *Result) {
			for _, ts := range res.Stats.Tests {
				// Each process runs one schedule and refuses the next: a
				// worker that ran more than one process did so because of
				// the leftovers.
				if ts.Schedules-1 > defaultWorkers() && ts.Fresh == 0 {
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
		want: map[string]checks.FailureKind{"TestWithJanitor": "", "TestWithoutJanitor": ""},
		check: func(t *testing.T, res *Result) {
			for _, ts := range res.Stats.Tests {
				if ts.Test != "TestWithJanitor" {
					continue
				}
				if ts.Schedules < 2*defaultWorkers() {
					t.Skipf("%s: %d schedules, too few to tell", ts.Test, ts.Schedules)
				}
				if ts.Fresh > ts.Schedules/256+defaultWorkers() || ts.Kept == 0 {
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
		check: func(t *testing.T, res *Result) {
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
		name:   "fails without interleave too",
		pkg:    "hygiene",
		budget: 3 * time.Second,
		want: map[string]checks.FailureKind{
			"TestForgetsClose": checks.Leak, "TestDropsReply": checks.Leak,
			"TestLeaksOnlyUnderTheTool": "", "TestFailsByItself": checks.TestFailure,
		},
		wantSite:  map[string]string{"TestDropsReply": "hygiene_test.go:64"},
		wantPlain: map[string]bool{"TestForgetsClose": false, "TestFailsByItself": true},
		check: func(t *testing.T, res *Result) {
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
		// never "fails too" (the message claimed so before).
		name:      "unperturbed fails, plain go test passes",
		pkg:       "unperturbed",
		want:      map[string]checks.FailureKind{"TestMainWinsUnderTheTool": checks.TestFailure},
		wantSite:  map[string]string{"TestMainWinsUnderTheTool": "unperturbed_test.go:18|unperturbed_test.go:28"},
		wantPlain: map[string]bool{"TestMainWinsUnderTheTool": false},
		check: func(t *testing.T, res *Result) {
			for _, f := range res.Findings {
				if strings.Contains(f.Message, "fails this way too") || f.Frequency.Every() || !strings.HasPrefix(f.PlainGo.Label(), "plain go test passes (exit 0") {
					t.Errorf("%s: message %q, labels %q, want schedule-dependent, plain go test passes", f.Test, f.Message, f.Labels())
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
		name:   "left running as under plain go test",
		pkg:    "leftrunning",
		budget: 4 * time.Second,
		want: map[string]checks.FailureKind{
			"TestLeavesLongJob": checks.Leak, "TestGivesUpOnReply": checks.Leak,
		},
		wantSite:  map[string]string{"TestGivesUpOnReply": "leftrunning_test.go:83"},
		wantMsg:   map[string][]string{"TestGivesUpOnReply": {"leak: goroutines still blocked after the test returned"}},
		wantPlain: map[string]bool{"TestLeavesLongJob": false},
		many:      map[string]bool{"TestLeavesLongJob": true}, // one per worker left running
		check: func(t *testing.T, res *Result) {
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
		name:   "real hang",
		pkg:    "realhang",
		budget: 4 * time.Second,
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
		// Mechanism 10: the producer leaks at one of two sends: one
		// finding.
		name:     "dedupe by signature",
		pkg:      "dedupe",
		budget:   3 * time.Second,
		want:     map[string]checks.FailureKind{"TestLookupCanceled": checks.Leak},
		wantSite: map[string]string{"TestLookupCanceled": "dedupe_test.go:21|dedupe_test.go:23"},
	},
	{
		// Mechanism 8: every test runs schedules, and the counts add up.
		// TestSleepsForReal's unperturbed run (3 s of real time) is
		// longer than its part of the first third of the budget, and
		// than what a retry within a third of the rest gave it: it must
		// get more and run to its end, though TestAlongNaps, which comes
		// first, would take all the rest of the budget (100 s). That one
		// is not searched, and its note says so.
		name: "budget",
		pkg:  "budget",
		// The rounds for stopped tests end at two thirds of the
		// budget: 10 s to 20 s, room for TestAlongNaps's 6 s and
		// TestSleepsForReal's 3 s one after the other.
		budget:  30 * time.Second,
		workers: 1,
		want: map[string]checks.FailureKind{
			"TestSlowDigests": "", "TestFast1": "", "TestFast2": "", "TestFast3": "",
			"TestFast4": "", "TestFast5": "", "TestFast6": "", "TestSleepsForReal": "", "TestAlongNaps": "",
		},
		notSearched: map[string]bool{"TestAlongNaps": true},
		check: func(t *testing.T, res *Result) {
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
		check: func(t *testing.T, res *Result) {
			for _, n := range res.Notes {
				if strings.Contains(n, "budget ran out") || strings.Contains(n, "not searched") {
					t.Errorf("note %q, want none", n)
				}
			}
		},
	},
}

func defaultWorkers() int { o := Options{Budget: 1}; _ = normalize(&o); return o.Workers }

// TestRealSuiteDriver searches each kernel of the driver's real-suite
// mechanisms and checks the outcome; every finding replays in a fresh
// process.
func TestRealSuiteDriver(t *testing.T) {
	if testing.Short() {
		t.Skip("builds, searches and replays six packages; skipped with -short")
	}
	dir, err := filepath.Abs(realsuiteDrvDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, dc := range drvCases {
		t.Run(dc.name, func(t *testing.T) {
			budget := dc.budget
			if budget == 0 {
				budget = robustBudget
			}
			if dc.machineLock != "" {
				lockMachine(t, dc.machineLock)
			}
			// A finding missed because the budget ran out first (a loaded
			// machine starts processes late) is searched for again with
			// the budget and the watchdog doubled, their ratio kept:
			// slowness costs time, not a failure.
			step := dc.step
			var res *Result
			for attempt := 0; ; attempt++ {
				opts := Options{
					Dir: dir, Patterns: []string{"./" + dc.pkg}, Budget: budget,
					Seed: 1, SchedulesDir: t.TempDir(), StepTimeout: step, Workers: dc.workers,
				}
				if dc.atHardStop {
					opts.afterSearch = func(s *search) { s.hardStop = time.Now() }
				}
				var err error
				if res, err = Run(ctx, opts); err != nil {
					t.Fatal(err)
				}
				if attempt == 3 || allFound(res, dc.want) || !containsAny(res.Notes, "the budget ran out") {
					break
				}
				budget, step = 2*budget, 2*step
				t.Logf("a finding was missed and the budget ran out; searching again for %v, watchdog %v", budget, step)
			}
			for _, n := range res.Notes {
				t.Log("note:", n)
			}
			for _, ts := range res.Stats.Tests {
				t.Logf("%s: %d schedules, unperturbed %q, cost %v, fresh %d", ts.Test, ts.Schedules, ts.Plain, ts.Cost, ts.Fresh)
				if _, ok := dc.want[ts.Test]; !ok {
					t.Errorf("searched %s, which the case does not name", ts.Test)
				}
				if ts.Schedules == 0 && !dc.notSearched[ts.Test] {
					t.Errorf("%s: no schedule ran", ts.Test)
				}
			}
			for test, fails := range dc.wantPlain {
				for _, f := range res.Findings {
					if f.Test == test && f.Kind == dc.want[test] && (f.PlainGo == nil || f.PlainGo.Runs == 0 || f.PlainGo.Fails() != fails) {
						t.Errorf("%s: labels %q, want plain go test run, failing too: %v", test, f.Labels(), fails)
					}
				}
			}
			if dc.check != nil {
				dc.check(t, res)
			}
			wantMsg := map[string][]string{}
			for test, ms := range dc.wantMsg {
				for _, m := range ms {
					wantMsg[test] = append(wantMsg[test], strings.ReplaceAll(m, "{step}", step.String()))
				}
			}
			checkFindings(ctx, t, res, findingCheck{
				dir: dir, step: step, want: dc.want, wantSite: dc.wantSite, wantMsg: wantMsg,
				siteOK: siteIn, many: dc.many,
			})
		})
	}
}

// TestBudgetShares: the budget is split half by weight, half by weight
// times measured cost; a test whose cost is unknown counts with the mean.
func TestBudgetShares(t *testing.T) {
	mk := func(cost time.Duration, plain string) *target {
		return &target{weight: 1, cost: cost, stats: &TestStats{Plain: plain}}
	}
	ts := []*target{
		mk(900*time.Millisecond, "pass"), // slow
		mk(10*time.Millisecond, "pass"),
		mk(10*time.Millisecond, "pass"),
		mk(80*time.Millisecond, "fatal"), // hung: counts with the mean
	}
	sh, costs := budgetShares(ts)
	if d := costs[3] - 920*time.Millisecond/3; d < -time.Millisecond || d > time.Millisecond {
		t.Errorf("the hung test's cost %v, want the mean of the others", costs[3])
	}
	var sum float64
	for _, x := range sh {
		sum += x
	}
	if sum < 0.999 || sum > 1.001 {
		t.Fatalf("shares %v add up to %v", sh, sum)
	}
	even := 1.0 / float64(len(ts))
	if sh[0] <= even {
		t.Errorf("slow test's share %v, want more than the even %v", sh[0], even)
	}
	for i := 1; i < 3; i++ {
		if sh[i] < even/2 {
			t.Errorf("fast test %d's share %v, want at least half the even %v", i, sh[i], even)
		}
	}
	mean := (900 + 10 + 10) / 3.0
	if want := sh[1] + (sh[0]-sh[1])*(mean-10)/(900-10); sh[3] < want-1e-9 || sh[3] > want+1e-9 {
		t.Errorf("unknown cost's share %v, want the mean cost's %v", sh[3], want)
	}
}

// TestKeyIgnoresStuckLine: the same leak stuck at another line of the
// same goroutine is one failure; another goroutine is another.
func TestKeyIgnoresStuckLine(t *testing.T) {
	leak := func(fn, site string) *failure {
		return &failure{kind: checks.Leak, site: site, goroutines: []checks.Goroutine{{
			ID: "g2", Site: site,
			Stack: []checks.Frame{{Func: fn, File: "/m/p/p_test.go", Line: 20}},
		}}}
	}
	a := leak("m/p.lookup.func1", "/m/p/p_test.go:21")
	b := leak("m/p.lookup.func1", "/m/p/p_test.go:23")
	c := leak("m/p.other.func1", "/m/p/p_test.go:21")
	if a.key() != b.key() {
		t.Errorf("keys differ for the same goroutine stuck at two lines:\n%s\n%s", a.key(), b.key())
	}
	if a.key() == c.key() {
		t.Errorf("same key for two goroutines: %s", a.key())
	}
}

// TestStdoutKeepsDetails: a test failure's words include the continuation
// lines of its first log entry (testify's Error and Messages, goleak's
// goroutine list), and stop at the next entry.
func TestStdoutKeepsDetails(t *testing.T) {
	p := &stdoutParser{cur: -1, logs: map[int][]string{}, indent: -1}
	out := "=== RUN   TestInterleaveDriver/schedule-3\n" +
		"    a_test.go:12: \n" +
		"        \tError Trace:\ta_test.go:12\n" +
		"        \tError:      \tShould be true\n" +
		"    a_test.go:13: second entry\n" +
		"--- FAIL: TestInterleaveDriver/schedule-3 (0.00s)\n"
	p.Write([]byte(out))
	got := p.logs[3][0]
	for _, want := range []string{"a_test.go:12:", "Error Trace:", "Should be true"} {
		if !strings.Contains(got, want) {
			t.Errorf("log %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "second entry") || strings.Contains(got, "FAIL") {
		t.Errorf("log %q runs into the next entry", got)
	}
}

// siteIn reports whether pos ends with one of the "|"-separated sites.
func siteIn(pos, sites string) bool {
	for _, s := range strings.Split(sites, "|") {
		if strings.HasSuffix(pos, s) {
			return true
		}
	}
	return false
}

// TestNoteUncontrolled: what the rewriter left as written is noted once
// per searched package, module-relative, however many tests it has.
func TestNoteUncontrolled(t *testing.T) {
	p := rewrite.Package{ImportPath: "m/p", Dir: "/m/p", Tests: []string{"TestA", "TestB"}}
	s := &search{inst: &rewrite.Result{ModuleRoot: "/m", Packages: []rewrite.Package{p}, Warnings: []string{
		"/m/p/a.go:3: method or function value (*sync.Mutex).Lock left as written",
		"/m/p/b_test.go:9: select left as written: its label is the target of a goto",
		"/m/q/c.go:1: go statement left as written",
	}}}
	s.noteUncontrolled([]*target{{pkg: p, name: "TestA"}, {pkg: p, name: "TestB"}})
	if len(s.notes) != 1 {
		t.Fatalf("notes %q, want one for m/p", s.notes)
	}
	for _, want := range []string{"m/p: 2 operations left uncontrolled", "\n  p/a.go:3: method", "\n  p/b_test.go:9: select"} {
		if !strings.Contains(s.notes[0], want) {
			t.Errorf("note %q lacks %q", s.notes[0], want)
		}
	}
	if strings.Contains(s.notes[0], "c.go") {
		t.Errorf("note %q names another package's file", s.notes[0])
	}
}

// TestOldLanguageVersion: the runtime compiles in a module whose go.mod
// says go 1.18, and in one that says go 1.13 (before generics).
func TestOldLanguageVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	for _, mod := range []string{"oldgo", "go113"} {
		t.Run(mod, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join(realsuiteDrvDir, mod))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Run(context.Background(), Options{Dir: dir, Budget: robustBudget, Seed: 1, SchedulesDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Findings) != 0 || res.Stats.Schedules == 0 {
				t.Errorf("findings %v after %d schedules, want none after some", res.Findings, res.Stats.Schedules)
			}
		})
	}
}

// TestSearchSlice: a test gets its share of what is left when that is
// enough for one process of one schedule; a test whose share is not gets
// nothing (its unperturbed schedule ran) and its share goes to the others.
func TestSearchSlice(t *testing.T) {
	ms := time.Millisecond
	// Even shares, cheap tests: the share.
	if got := searchSlice(10*time.Second, []float64{0.5, 0.5}, []time.Duration{ms, ms}); got != 5*time.Second {
		t.Errorf("even split: %v, want 5s", got)
	}
	// A slow test whose share is shorter than one schedule gets none,
	if got := searchSlice(10*time.Second, []float64{0.01, 0.99}, []time.Duration{2 * time.Second, ms}); got != 0 {
		t.Errorf("slow test: %v, want 0", got)
	}
	// and the tests after it share its part.
	got := searchSlice(3*time.Second, []float64{0.9, 0.05, 0.05}, []time.Duration{ms, time.Second, time.Second})
	if got != 3*time.Second {
		t.Errorf("first of three, the others too slow for their share: %v, want all 3s", got)
	}
	got = searchSlice(10*time.Second, []float64{0.5, 0.25, 0.25}, []time.Duration{5 * time.Second, ms, ms})
	if got != 0 {
		t.Errorf("slow first test: %v, want 0", got)
	}
	if got := searchSlice(10*time.Second, []float64{0.25, 0.25}, []time.Duration{ms, ms}); got != 5*time.Second {
		t.Errorf("after it: %v, want 5s", got)
	}
	// A slow test whose share fits gets its share, not more.
	got = searchSlice(10*time.Second, []float64{0.5, 0.5}, []time.Duration{3 * time.Second, ms})
	if got != 5*time.Second {
		t.Errorf("slow test that fits: %v, want 5s", got)
	}
	// The last test takes what is left.
	if got := searchSlice(4*time.Second, []float64{0.2}, []time.Duration{ms}); got != 4*time.Second {
		t.Errorf("last test: %v, want all 4s", got)
	}
	if got := searchSlice(time.Second, []float64{0.5}, []time.Duration{2 * time.Second}); got != 0 {
		t.Errorf("no room: %v, want 0", got)
	}
}

// TestStoppedAtShareEnd: a worker's schedule still running when its
// test's share ran out is counted as stopped, not as a crash, and named in
// one summary note rather than a note of the test's; the unperturbed run
// stopped so is still a note of the test's.
func TestStoppedAtShareEnd(t *testing.T) {
	s := &search{opts: Options{StepTimeout: time.Second}, failures: map[string]*failure{}, owners: map[string]*target{}}
	tg := &target{name: "TestLong", pkg: rewrite.Package{Dir: t.TempDir()}, stats: &TestStats{Plain: "pass"}}
	killed := func(i int) *childOutcome {
		return &childOutcome{crashed: i, killed: true, leftovers: -1, started: i + 1, logs: map[int][]string{}}
	}
	s.collect(tg, killed(3), 0, "portfolio")
	s.collect(tg, killed(workerStride+2), workerStride, "portfolio")
	if tg.stats.Crashes != 0 || tg.stats.Stopped != 2 || tg.stats.Failures != 0 {
		t.Errorf("crashes %d, stopped %d, failures %d; want 0, 2, 0", tg.stats.Crashes, tg.stats.Stopped, tg.stats.Failures)
	}
	if len(s.notes) != 0 {
		t.Errorf("notes %q, want none before the summary", s.notes)
	}
	s.noteStopped([]*target{tg})
	if len(s.notes) != 1 || strings.HasPrefix(s.notes[0], "TestLong:") || !strings.Contains(s.notes[0], "2 schedules stopped unfinished") || !strings.Contains(s.notes[0], "TestLong") {
		t.Errorf("notes %q, want one summary naming TestLong", s.notes)
	}
	plain := &target{name: "TestPlain", pkg: rewrite.Package{Dir: t.TempDir()}, stats: &TestStats{}}
	s.collect(plain, killed(0), 0, rt.PlainStrategy)
	if plain.stats.Stopped != 0 || len(s.notes) != 2 || !strings.HasPrefix(s.notes[1], "TestPlain: ") {
		t.Errorf("unperturbed run stopped: stopped %d, notes %q; want a note of TestPlain's", plain.stats.Stopped, s.notes)
	}
}

// TestToolSibling (issue 21): a failure the tool causes on every schedule
// of one test is a note; the same failure on some schedules of a sibling
// test, which plain go test passes, is a note too, never a finding. A
// budget in which the sibling never failed is doubled.
func TestToolSibling(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a package; skipped with -short")
	}
	dir, err := filepath.Abs(realsuiteDrvDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for budget, attempt := 3*time.Second, 0; ; budget, attempt = 2*budget, attempt+1 {
		res, err := Run(ctx, Options{
			Dir: dir, Patterns: []string{"./toolsibling"}, Budget: budget, Seed: int64(1 + attempt), SchedulesDir: t.TempDir(),
			// The sibling's weight: it must fail in its share.
			Tests: []TestRef{{Package: "realsuitedrv/toolsibling", Name: "TestStartsServer"}, {Package: "realsuitedrv/toolsibling", Name: "TestStartsServerLate", Weight: 4}},
		})
		if err != nil {
			t.Fatal(err)
		}
		late := 0 // failing schedules of TestStartsServerLate
		for _, ts := range res.Stats.Tests {
			if ts.Test == "TestStartsServerLate" {
				late = ts.Failures
			}
		}
		if late == 0 && attempt < 3 {
			t.Logf("TestStartsServerLate did not fail in %v; searching again", budget)
			continue
		}
		for _, f := range res.Findings {
			t.Errorf("%s: %s reported (%s): %s", f.Test, f.Kind, f.Labels(), f.Message)
		}
		var own, sibling bool
		for _, n := range res.Notes {
			t.Log("note:", n)
			own = own || strings.HasPrefix(n, "TestStartsServer: not reported, most likely the tool's doing: the unperturbed schedule")
			sibling = sibling || strings.HasPrefix(n, "TestStartsServerLate: not reported, most likely the tool's doing: it fails (panic: Unable to start server") &&
				strings.Contains(n, "as TestStartsServer does") &&
				(strings.Contains(n, "passed") || strings.Contains(n, "plain go test could not be run to tell"))
		}
		if !own || !sibling {
			t.Errorf("notes %q, want TestStartsServer's failure and TestStartsServerLate's (%d failing schedules) noted as the tool's", res.Notes, late)
		}
		return
	}
}
