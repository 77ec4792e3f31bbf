package explore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// realsuiteDrvDir is the nested module of the driver's real-suite kernels
// (issue 14): each package is a false alarm the driver used to raise.
const realsuiteDrvDir = "../testdata/realsuite-drv"

// TestRealSuiteDriver searches the kernel of the driver's real-suite
// mechanisms that needs the search's internals and checks the outcome. The
// others are realsuitetest's TestRealSuiteDriver (a binary, and a timeout,
// of their own).
func TestRealSuiteDriver(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	// New M: a failure that only state left by an earlier schedule causes,
	// when the search ends at its hard stop, the end of the budget (a
	// loaded machine), moved here to its end: its first replays still run,
	// past the budget's end (replayOverrun: a failure found is not dropped
	// for want of the time to replay it), alone (it does not reproduce)
	// and then after the earlier schedule, which reproduces it: the
	// finding a search with time reports (realsuitetest's "process-wide
	// state"), and a note says the budget was overrun. Before the overrun,
	// a note "no time was left", no finding.
	t.Run("process-wide state at the hard stop", func(t *testing.T) {
		ctx := context.Background()
		// A process's second schedule fails: a count, not the time a
		// loaded machine leaves after the first.
		res, err := Run(ctx, Options{
			Dir: dir, Patterns: []string{"./globalstate"}, Budget: 3 * time.Minute,
			Seed: 1, SchedulesDir: t.TempDir(), Schedules: 3, Build: build,
			afterSearch: func(s *search) { s.hardStop = time.Now() },
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range res.Notes {
			t.Log("note:", n)
		}
		const test = "TestRegisterHandler"
		for _, ts := range res.Stats.Tests {
			t.Logf("%s: %d schedules (first failing: %d), unperturbed %q, cost %v, fresh %d", ts.Test, ts.Schedules, ts.ToFirstFailure, ts.Plain, ts.Cost, ts.Fresh)
			if ts.Test != test {
				t.Errorf("searched %s, which the case does not name", ts.Test)
			}
			if ts.Schedules == 0 {
				t.Errorf("%s: no schedule ran", ts.Test)
			}
		}
		if !testkit.ContainsAny(res.Notes, "past the budget's end") {
			t.Errorf("notes %q, want one saying the replays ran past the budget's end", res.Notes)
		}
		checkFindings(ctx, t, res, findingCheck{dir: dir, Want: testkit.Want{Kinds: map[string]checks.FailureKind{test: checks.Panic}}})
		for _, f := range res.Findings {
			if f.AfterEarlier == nil || f.NotReplayed != "" {
				t.Errorf("%s: labels %q, want replayed after the earlier run it needs", f.Test, f.Labels())
			}
		}
	})
}

// TestBudgetShares: the budget is split half by weight, half by weight
// times measured cost; a test whose cost is unknown counts with the mean.
func TestBudgetShares(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// TestNoteUncontrolled: what the rewriter left as written is noted once
// per searched package, module-relative, however many tests it has.
func TestNoteUncontrolled(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// TestPlainFailsOtherwise: a test whose every schedule fails under
// interleave and which plain go test fails too, another way (buntdb's
// TestReloadNotInvalid), is a note that quotes plain go test's exit and
// failure line and does not call it the tool's doing.
func TestPlainFailsOtherwise(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and searches a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	want := "TestFailsEitherWay: not reported: the unperturbed schedule under interleave fails (panic: invalid argument to Intn), and plain go test fails too, another way ("
	// A budget too short for the plain runs leaves it undecided: doubled.
	for budget, attempt := 5*time.Second, 0; ; budget, attempt = 2*budget, attempt+1 {
		res, err := Run(context.Background(), Options{
			Dir: dir, Patterns: []string{"./toolsibling"}, Budget: budget, Seed: 1, SchedulesDir: t.TempDir(), Build: build,
			Tests: []TestRef{{Package: "realsuitedrv/toolsibling", Name: "TestFailsEitherWay"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		found, blamed := false, false
		for _, n := range res.Notes {
			t.Log("note:", n)
			blamed = blamed || strings.HasPrefix(n, "TestFailsEitherWay: not reported, most likely the tool's doing")
			if strings.HasPrefix(n, want) {
				found = true
				if !strings.Contains(n, "3 failed (exit 1: toolsibling_test.go:56: invalid database)") || strings.Contains(n, "tool's doing") {
					t.Errorf("note %q: want plain go test's exit and failure line quoted, the tool not blamed", n)
				}
			}
		}
		if blamed {
			t.Fatalf("notes %q: the failure blamed on the tool though plain go test fails too", res.Notes)
		}
		if !found && attempt < 3 && len(res.Findings) == 0 {
			t.Logf("plain go test's outcome not decided in %v; searching again", budget)
			continue
		}
		for _, f := range res.Findings {
			t.Errorf("%s: %s reported (%s): %s", f.Test, f.Kind, f.Labels(), f.Message)
		}
		if !found {
			t.Errorf("notes %q, want one starting %q", res.Notes, want)
		}
		return
	}
}

// TestToolSibling (issue 21): a failure the tool causes on every schedule
// of one test is a note; the same failure on some schedules of a sibling
// test, which plain go test passes, is a note too, never a finding. A
// budget in which the sibling never failed is doubled.
func TestToolSibling(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds and searches a package; skipped with -short")
	}
	dir, build := sharedBuild(t, realsuiteDrvDir)
	ctx := context.Background()
	for budget, attempt := 3*time.Second, 0; ; budget, attempt = 2*budget, attempt+1 {
		res, err := Run(ctx, Options{
			Dir: dir, Patterns: []string{"./toolsibling"}, Budget: budget, Seed: int64(1 + attempt), SchedulesDir: t.TempDir(), Build: build,
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
