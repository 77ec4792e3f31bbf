package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/report"
)

// The logs are plain go test runs of the bug kernels (see
// checks/dynamic/failurelog's tests); repro runs in the kernels' module.
var (
	kernelsDir = filepath.Join("..", "..", "checks", "dynamic", "testdata", "kernels")
	logsDir    = filepath.Join("..", "..", "checks", "dynamic", "failurelog", "testdata")
)

func logPath(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join(logsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// reproIn runs `interleave repro ARGS` in the kernels' module, in process.
func reproIn(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	dir, err := filepath.Abs(kernelsDir)
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, dir: dir}
	code = runMain(context.Background(), env, append([]string{"repro"}, args...))
	return code, out.String(), errb.String()
}

func TestParseReproFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{nil, exitError, "want exactly one log file"},
		{[]string{"a.log", "b.log"}, exitError, "got 2 arguments"},
		{[]string{"-failure", "0", "a.log"}, exitError, "-failure counts from 1"},
		{[]string{"-max-steps", "-1", "a.log"}, exitError, "-max-steps counts steps"},
		{[]string{"-h"}, exitOK, "6 inconclusive: every"},
		{[]string{"-test", "TestA|TestB", "a.log"}, exitError, "-test wants a top-level test function name"},
		{[]string{"-budget", "0s", "a.log"}, exitError, "-budget must be positive"},
		{[]string{"-strategy", "dfs", "a.log"}, exitError, "unknown -strategy"},
		{[]string{"-h"}, exitOK, "3 the log names no test"},
	} {
		var stderr bytes.Buffer
		env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &stderr, dir: t.TempDir()}
		_, code, ok := parseReproFlags(env, tt.args)
		if ok || code != tt.code || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%q: ok %v code %d, want code %d with %q in %q", tt.args, ok, code, tt.code, tt.want, stderr.String())
		}
	}
}

// The exit codes that need no build: each says what is wrong.
func TestReproExitCodesBeforeTheSearch(t *testing.T) {
	tmp := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(tmp, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	panicLog, err := os.ReadFile(logPath(t, "panic.log"))
	if err != nil {
		t.Fatal(err)
	}
	elsewhere := strings.ReplaceAll(string(panicLog), "kernels/chans", "example.com/other/chans")
	nosuch := strings.ReplaceAll(string(panicLog), "kernels/chans", "kernels/nosuch")
	// The log on standard input.
	nilmap, err := os.ReadFile(logPath(t, "nilmap.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer func(r io.Reader) { reproStdin = r }(reproStdin)
	reproStdin = bytes.NewReader(nilmap)
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"stdin", []string{"-"}, exitReproNoTest, "the log shows a panic at line 1: panic: assignment to entry in nil map"},
		{"missing file", []string{filepath.Join(tmp, "none.log")}, exitError, "reading the log"},
		{"no failure", []string{write("pass.log", "=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok  \tkernels/locks\t0.1s\n")}, exitError, "no failure in the log"},
		{"names no test", []string{logPath(t, "nilmap.log")}, exitReproNoTest, "the log names no test"},
		{"other module", []string{write("other.log", elsewhere)}, exitReproNotFound, "is not in module kernels"},
		{"no such package", []string{write("nosuch.log", nosuch)}, exitReproNotFound, "test kernels/nosuch.TestCloseClosed not found"},
		{"second failure of one", []string{"-failure", "2", logPath(t, "panic.log")}, exitError, "the log shows only 1 failure"},
		{"negative drift", []string{"-line-drift", "-1", logPath(t, "panic.log")}, exitError, "-line-drift counts lines"},
		// Cut to the failure, as pasted in an issue: no FAIL line.
		{"no package, test in none", []string{write("nopkg.log", "--- FAIL: TestNoSuch (0.00s)\n    x_test.go:3: lost\n")}, exitReproNotFound, "no package of this module has a function TestNoSuch"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := reproIn(t, append([]string{"-race=false", "-schedules", t.TempDir()}, tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Errorf("code %d, want %d with %q; stderr:\n%s", code, tt.code, tt.want, stderr)
			}
		})
	}
}

// TestReproReplays turns two logs of plain go test runs, a panic and a
// timeout's goroutine dump, into schedules and replays them.
func TestReproReplays(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds instrumented test binaries; skipped with -short")
	}
	for _, tt := range []struct {
		log, test string
		kind      checks.FailureKind
		site      string
	}{
		{"panic.log", "TestCloseClosed", checks.Panic, "chans_test.go:59"},
		{"timeout.log", "TestABBA", checks.Deadlock, "locks_test.go:20"},
	} {
		t.Run(tt.log, func(t *testing.T) {
			sched := t.TempDir()
			// The budget only bounds a search that goes wrong: repro
			// stops at the log's failure.
			code, stdout, stderr := reproIn(t, "-race=false", "-seed", "1", "-budget", "2m", "-format", "json", "-schedules", sched, logPath(t, tt.log))
			if code != exitFindings {
				t.Fatalf("code %d, want %d; stderr:\n%s", code, exitFindings, stderr)
			}
			var rep report.JSONReport
			if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
				t.Fatalf("stdout is not a JSON report: %v\n%s", err, stdout)
			}
			if len(rep.Findings) != 1 {
				t.Fatalf("%d findings, want the log's one: %+v", len(rep.Findings), rep.Findings)
			}
			fd := rep.Findings[0]
			if fd.Test != tt.test || fd.Kind != tt.kind || filepath.Base(fd.Pos.File)+":"+strconv.Itoa(fd.Pos.Line) != tt.site || fd.Schedule == "" {
				t.Errorf("finding %s %s at %s:%d (schedule %q), want %s %s at %s", fd.Test, fd.Kind, fd.Pos.File, fd.Pos.Line, fd.Schedule, tt.test, tt.kind, tt.site)
			}
			for _, w := range []string{"reproduced " + tt.test, "interleaving (", "replay: interleave replay " + fd.Schedule} {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			dir, _ := filepath.Abs(kernelsDir)
			rcode, out := replayIn(t, dir, []string{fd.Schedule})
			if rcode != exitFindings || !strings.Contains(out, "REPRODUCED") {
				t.Errorf("replay of %s: code %d, want %d (reproduced):\n%s", fd.Schedule, rcode, exitFindings, out)
			}
		})
	}
}

// A test the package does not have (renamed since the log) is exit 4.
func TestReproTestNotFound(t *testing.T) {
	if testing.Short() {
		t.Skip("instruments a kernel package; skipped with -short")
	}
	b, err := os.ReadFile(logPath(t, "panic.log"))
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "renamed.log")
	if err := os.WriteFile(log, []byte(strings.ReplaceAll(string(b), "TestCloseClosed", "TestCloseClosedTwice")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := reproIn(t, "-race=false", "-budget", "2s", "-schedules", t.TempDir(), log)
	if code != exitReproNotFound || !strings.Contains(stderr, "test kernels/chans.TestCloseClosedTwice not found") {
		t.Errorf("code %d, want %d with the test not found; stderr:\n%s", code, exitReproNotFound, stderr)
	}
}

// A search that meets only other failures ends with exit 5 and reports
// none of them as the log's.
func TestReproNotReached(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	t.Parallel()
	b, err := os.ReadFile(logPath(t, "panic.log"))
	if err != nil {
		t.Fatal(err)
	}
	// The same panic one line up: no schedule of the test panics there.
	log := filepath.Join(t.TempDir(), "moved.log")
	if err := os.WriteFile(log, []byte(strings.Replace(string(b), "chans_test.go:59", "chans_test.go:58", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := reproIn(t, "-race=false", "-seed", "1", "-budget", "2m", "-count", "20", "-line-drift", "0", "-format", "json", "-schedules", t.TempDir(), log)
	if code != exitReproNotReached {
		t.Fatalf("code %d, want %d; stderr:\n%s", code, exitReproNotReached, stderr)
	}
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("stdout is not a JSON report: %v\n%s", err, stdout)
	}
	if len(rep.Findings) != 0 {
		t.Errorf("a different failure is reported as the log's: %+v", rep.Findings)
	}
	if !strings.Contains(stderr, "not reproduced") || !strings.Contains(stderr, "-line-drift 1 accepts them") {
		t.Errorf("stderr lacks the verdict or the hint:\n%s", stderr)
	}
	// By default a frame one line away is the log's (a log from a nearby
	// commit), and repro says the match is off the log's lines.
	code, _, stderr = reproIn(t, "-race=false", "-seed", "1", "-budget", "2m", "-count", "20", "-format", "json", "-schedules", t.TempDir(), log)
	if code != exitFindings || !strings.Contains(stderr, "matched within -line-drift 1 only") {
		t.Errorf("default drift: code %d, want %d, matched off the log's line; stderr:\n%s", code, exitFindings, stderr)
	}
}

// A log whose goroutine failed its test after the test completed ("panic:
// Fail in goroutine after TestPoolJobs has completed"), from a helper's
// goroutine whose stacks name no test: repro takes the test from the
// message, reproduces it as a schedule in which the test returns first,
// and the schedule replays.
func TestReproLateFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join(logsDir, "late"))
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, dir: dir}
	code := runMain(context.Background(), env, []string{"repro", "-race=false", "-seed", "1", "-budget", "2m", "-format", "json", "-schedules", t.TempDir(), logPath(t, "late.log")})
	if code != exitFindings {
		t.Fatalf("code %d, want %d; stderr:\n%s", code, exitFindings, errb.String())
	}
	if !strings.Contains(errb.String(), "test TestPoolJobs of late (from the panic message)") {
		t.Errorf("stderr does not name the test from the message:\n%s", errb.String())
	}
	var rep report.JSONReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Findings) != 1 {
		t.Fatalf("want one finding in a JSON report (%v):\n%s", err, out.String())
	}
	fd := rep.Findings[0]
	if fd.Kind != checks.Panic || !strings.Contains(fd.Message, "Fail in goroutine after TestPoolJobs") || filepath.Base(fd.Pos.File) != "late_test.go" || fd.Pos.Line != 15 {
		t.Errorf("finding %s %q at %s:%d, want the late failure at late_test.go:15", fd.Kind, fd.Message, fd.Pos.File, fd.Pos.Line)
	}
	rcode, rout := replayIn(t, dir, []string{fd.Schedule})
	if rcode != exitFindings || !strings.Contains(rout, "REPRODUCED") {
		t.Errorf("replay of %s: code %d, want %d (reproduced):\n%s", fd.Schedule, rcode, exitFindings, rout)
	}
}

// A log that names the test but not its package: the package is the one
// of the module that declares the test.
func TestReproTestPackages(t *testing.T) {
	dir, err := filepath.Abs(kernelsDir)
	if err != nil {
		t.Fatal(err)
	}
	for test, want := range map[string]string{"TestLostUpdate": "kernels/locks", "TestCloseClosed": "kernels/chans", "TestNoSuch": "", "TestLost": ""} {
		got, err := testPackages(context.Background(), dir, test, nil)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, ",") != want {
			t.Errorf("testPackages(%s) = %v, want %q", test, got, want)
		}
	}
}

// A sleep-based flake (failurelog/testdata/sleepy: the test sleeps for a
// drainer instead of waiting for it): its failure needs the sleep to end
// before the drainer ran, a timer fired early, which test and pr file as
// inconclusive. The log shows plain go test failing so: repro reports it,
// labelled, and the schedule replays it. The twin log's failure (the
// second check) no early timer gives: the early failures met are not
// reported as the log's.
func TestReproSleepFlake(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	dir, err := filepath.Abs(filepath.Join(logsDir, "sleepy"))
	if err != nil {
		t.Fatal(err)
	}
	repro := func(log string, args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &errb, dir: dir}
		args = append([]string{"repro", "-race=false", "-seed", "1", "-format", "json", "-schedules", t.TempDir()}, args...)
		code := runMain(context.Background(), env, append(args, logPath(t, log)))
		return code, out.String(), errb.String()
	}
	code, stdout, stderr := repro("sleepy.log", "-budget", "2m")
	if code != exitFindings {
		t.Fatalf("code %d, want %d; stderr:\n%s", code, exitFindings, stderr)
	}
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Findings) != 1 {
		t.Fatalf("want one finding in a JSON report (%v):\n%s", err, stdout)
	}
	fd := rep.Findings[0]
	if fd.Kind != checks.TestFailure || !strings.Contains(fd.Message, "sleepy_test.go:18: drained") || fd.EarlyTimers == nil || fd.EarlyTimers.Jumps == 0 {
		t.Errorf("finding %s %q, early timers %+v; want the log's failure at sleepy_test.go:18, labelled", fd.Kind, fd.Message, fd.EarlyTimers)
	}
	if !strings.Contains(stderr, "needs a timer to fire early") {
		t.Errorf("stderr does not tell that the timer fired early:\n%s", stderr)
	}
	rcode, rout := replayIn(t, dir, []string{fd.Schedule})
	if rcode != exitFindings || !strings.Contains(rout, "REPRODUCED") || !strings.Contains(rout, "needs a timer to fire early") {
		t.Errorf("replay of %s: code %d, want %d (reproduced, labelled):\n%s", fd.Schedule, rcode, exitFindings, rout)
	}

	// The twin: a bounded count, not a budget, ends the search.
	code, stdout, stderr = repro("sleepy-last.log", "-budget", "2m", "-count", "200")
	if code != exitReproNotReached {
		t.Fatalf("twin: code %d, want %d; stderr:\n%s", code, exitReproNotReached, stderr)
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Findings) != 0 {
		t.Errorf("twin: a failure reported as the log's (%v): %s", err, stdout)
	}
	if !strings.Contains(stderr, "after a timer fired early (inconclusive)") || strings.Contains(stderr, "also found") {
		t.Errorf("twin: stderr should list the early failures as not the log's, and report none:\n%s", stderr)
	}
}

// A failure on the second run of a test in one process (go test -count=2,
// failurelog/testdata/twice: the first run releases the package's default
// pool, the second waits for ever): repro runs the test twice in a row in
// each schedule, reproduces the hang as a deadlock at the log's line, and
// the schedule replays it (twice in a row too).
func TestReproSecondRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join(logsDir, "twice"))
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, dir: dir}
	code := runMain(context.Background(), env, []string{"repro", "-race=false", "-seed", "1", "-budget", "2m", "-count", "50", "-format", "json", "-schedules", t.TempDir(), logPath(t, "twice.log")})
	if code != exitFindings {
		t.Fatalf("code %d, want %d; stderr:\n%s", code, exitFindings, errb.String())
	}
	if !strings.Contains(errb.String(), "each schedule runs it 2 times in a row") {
		t.Errorf("stderr does not say the test runs twice:\n%s", errb.String())
	}
	var rep report.JSONReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Findings) != 1 {
		t.Fatalf("want one finding in a JSON report (%v):\n%s", err, out.String())
	}
	fd := rep.Findings[0]
	if fd.Kind != checks.Deadlock || filepath.Base(fd.Pos.File) != "twice_test.go" || fd.Pos.Line != 17 {
		t.Errorf("finding %s %q at %s:%d, want the deadlock at twice_test.go:17", fd.Kind, fd.Message, fd.Pos.File, fd.Pos.Line)
	}
	rcode, rout := replayIn(t, dir, []string{fd.Schedule})
	if rcode != exitFindings || !strings.Contains(rout, "REPRODUCED") || !strings.Contains(rout, "run 2 times in a row") {
		t.Errorf("replay of %s: code %d, want %d (reproduced, twice in a row):\n%s", fd.Schedule, rcode, exitFindings, rout)
	}
}

// TestReproStepBound: a test that needs more scheduling steps than the
// step bound ends at it in every schedule; repro says so and exits 6
// (inconclusive), not 5 (not reproduced), with the count in the report's
// notes. With -max-steps above what the test needs, it reproduces the
// log's lost update (a count short of 3002: numbers in a message are
// not compared), and the schedule carries the bound, so its replay
// runs as far.
func TestReproStepBound(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	dir, err := filepath.Abs(filepath.Join(logsDir, "long"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &errb, dir: dir}
		base := []string{"repro", "-race=false", "-seed", "1", "-budget", "2m", "-workers", "1", "-format", "json", "-schedules", t.TempDir()}
		code := runMain(context.Background(), env, append(append(base, args...), logPath(t, "long.log")))
		return code, out.String(), errb.String()
	}
	code, out, stderr := run("-count", "3", "-max-steps", "2000")
	if code != exitReproBounded {
		t.Fatalf("code %d, want %d (inconclusive: step bound); stderr:\n%s", code, exitReproBounded, stderr)
	}
	for _, want := range []string{"stopped at the step bound (2000 scheduling steps)", "try -max-steps 20000", "inconclusive: step bound"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Findings) != 0 || !strings.Contains(strings.Join(rep.Notes, "\n"), "stopped at the step bound") {
		t.Errorf("want no finding and the step bound in the notes (%v):\n%s", err, out)
	}

	code, out, stderr = run("-count", "200", "-max-steps", "100000")
	if code != exitFindings {
		t.Fatalf("-max-steps 100000: code %d, want %d; stderr:\n%s", code, exitFindings, stderr)
	}
	rep = report.JSONReport{}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Findings) != 1 {
		t.Fatalf("want one finding in a JSON report (%v):\n%s", err, out)
	}
	fd := rep.Findings[0]
	if fd.Kind != checks.TestFailure || !strings.Contains(fd.Message, "long_test.go:23: count = ") {
		t.Errorf("finding %s %q, want the lost update at long_test.go:23", fd.Kind, fd.Message)
	}
	rcode, rout := replayIn(t, dir, []string{fd.Schedule})
	if rcode != exitFindings || !strings.Contains(rout, "REPRODUCED") || !strings.Contains(rout, "step bound 100000") {
		t.Errorf("replay of %s: code %d, want %d (reproduced, step bound 100000):\n%s", fd.Schedule, rcode, exitFindings, rout)
	}
}

// TestReproAssertionValues: a testify assertion's values are the log's
// failure. The kernel's lost update fails its assertion with expected 2,
// actual 1; a log of it in testify's format since v1.2 (values-new.log,
// written by hand: plain go test rarely fails it) is reproduced, and the
// schedule replays; a log with actual 3 is not, and repro says it met the
// assertion with other values. The format before v1.2 (values-old.log)
// gives the same signature and matches the same messages
// (failurelog.TestTestifyValues); its repro run is
// TestReproAssertionValuesOld, behind -tags heavy.
func TestReproAssertionValues(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	fd := reproValuesFound(t, "values-new.log")
	dir := valuesDir(t)
	if rcode, rout := replayIn(t, dir, []string{fd.Schedule}); rcode != exitFindings || !strings.Contains(rout, "REPRODUCED") {
		t.Errorf("replay of %s: code %d, want %d:\n%s", fd.Schedule, rcode, exitFindings, rout)
	}
	// The same assertion two lines below in the log (a log from a nearby
	// commit): -line-drift 2 takes it, says so, and the schedule replays.
	code, out, stderr := reproValues(t, "values-drift.log", "-line-drift", "2")
	if code != exitFindings || !strings.Contains(stderr, "matched within -line-drift 2 only") {
		t.Fatalf("values-drift.log: code %d, want %d, matched off the log's line; stderr:\n%s", code, exitFindings, stderr)
	}
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Findings) != 1 {
		t.Fatalf("values-drift.log: want one finding in a JSON report (%v):\n%s", err, out)
	}
	if rcode, rout := replayIn(t, dir, []string{rep.Findings[0].Schedule}); rcode != exitFindings || !strings.Contains(rout, "REPRODUCED") {
		t.Errorf("replay of %s: code %d, want %d:\n%s", rep.Findings[0].Schedule, rcode, exitFindings, rout)
	}
	code, _, stderr = reproValues(t, "values-other.log")
	if code != exitReproNotReached {
		t.Fatalf("values-other.log: code %d, want %d; stderr:\n%s", code, exitReproNotReached, stderr)
	}
	if !strings.Contains(stderr, "the log's assertion at its line but with other values than expected 2, actual 3") {
		t.Errorf("values-other.log: repro does not say it met the assertion with other values:\n%s", stderr)
	}
}

// valuesDir is the module of the assertion-values kernel.
func valuesDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join(logsDir, "values"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// reproValues runs repro of log in the assertion-values kernel's module.
func reproValues(t *testing.T, log string, flags ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, dir: valuesDir(t)}
	args := append([]string{"repro", "-race=false", "-seed", "1", "-budget", "2m", "-workers", "1", "-count", "200", "-format", "json", "-schedules", t.TempDir()}, flags...)
	code := runMain(context.Background(), env, append(args, logPath(t, log)))
	return code, out.String(), errb.String()
}

// reproValuesFound runs repro of log, a log of the kernel's assertion with
// expected 2, actual 1, and returns its one finding: the assertion with
// its values.
func reproValuesFound(t *testing.T, log string) report.JSONFinding {
	t.Helper()
	code, out, stderr := reproValues(t, log)
	if code != exitFindings {
		t.Fatalf("%s: code %d, want %d; stderr:\n%s", log, code, exitFindings, stderr)
	}
	if !strings.Contains(stderr, `with "Not equal:" expected 2, actual 1 at values_test.go:28`) {
		t.Errorf("%s: the signature is not the assertion's with its values:\n%s", log, stderr)
	}
	var rep report.JSONReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Findings) != 1 {
		t.Fatalf("%s: want one finding in a JSON report (%v):\n%s", log, err, out)
	}
	fd := rep.Findings[0]
	if !strings.Contains(fd.Message, "values_test.go:28: Not equal: expected: 2 actual : 1") {
		t.Errorf("%s: finding %q, want the assertion with its values", log, fd.Message)
	}
	return fd
}

// TestMergeRound: the rounds of a repro search add up (schedules, time,
// the test's counts, notes) and the last round's findings are the result.
func TestMergeRound(t *testing.T) {
	r1 := &explore.Result{Notes: []string{"a"}, Met: true, Stats: explore.Stats{Schedules: 15, Elapsed: 8 * time.Second,
		Tests: []explore.TestStats{{Package: "p", Test: "TestX", Schedules: 15, Failures: 4, StepBound: 1}}}}
	r2 := &explore.Result{Notes: []string{"b"}, Met: true, Findings: []checks.Finding{{Message: "m"}}, Stats: explore.Stats{Schedules: 30, Elapsed: 20 * time.Second,
		Tests: []explore.TestStats{{Package: "p", Test: "TestX", Schedules: 30, Failures: 2, StepBound: 3}}}}
	all := mergeRound(nil, r1, 1)
	all = mergeRound(all, r2, 2)
	ts := all.Stats.Tests
	if all.Stats.Schedules != 45 || all.Stats.Elapsed != 28*time.Second || len(ts) != 1 || ts[0].Schedules != 45 || ts[0].Failures != 6 || ts[0].StepBound != 4 {
		t.Errorf("merged stats %+v", all.Stats)
	}
	if strings.Join(all.Notes, ",") != "a,b" || len(all.Findings) != 1 || !all.Met {
		t.Errorf("merged notes %q, %d findings, met %v", all.Notes, len(all.Findings), all.Met)
	}
	if len(r1.Notes) != 1 {
		t.Errorf("the first round's notes changed: %q", r1.Notes)
	}
	until := func(fd checks.Finding) bool { return fd.Message == "m" }
	if matched(r1, until) || !matched(r2, until) {
		t.Errorf("matched: a round without the accepted finding, or with it, misread")
	}
}

// TestReproPlainShown: the log's failure is a job timer that an earlier
// run left firing a minute later (failurelog/testdata/leftover, its log a
// real go test -count=10000 run that failed after 60 s). Under control
// the unperturbed schedule fails so at once (the virtual clock reaches
// the minute), while plain go test -count=2 passes: by that alone it
// would be filed as the tool's doing, but the log is plain go test
// failing so. It is reproduced, and replays.
func TestReproPlainShown(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	dir, err := filepath.Abs(filepath.Join(logsDir, "leftover"))
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, dir: dir}
	code := runMain(context.Background(), env, []string{"repro", "-race=false", "-seed", "1", "-budget", "2m", "-workers", "1", "-count", "20", "-format", "json", "-schedules", t.TempDir(), logPath(t, "leftover.log")})
	stderr := errb.String()
	if code != exitFindings {
		t.Fatalf("code %d, want %d; stderr:\n%s", code, exitFindings, stderr)
	}
	if strings.Contains(stderr, "most likely the tool's doing") {
		t.Errorf("the log's failure was filed as the tool's doing:\n%s", stderr)
	}
	var rep report.JSONReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || len(rep.Findings) != 1 {
		t.Fatalf("want one finding in a JSON report (%v):\n%s", err, out.String())
	}
	fd := rep.Findings[0]
	if !strings.Contains(fd.Message, "implement me") {
		t.Errorf("finding %q, want the log's panic", fd.Message)
	}
	rcode, rout := replayIn(t, dir, []string{fd.Schedule})
	if rcode != exitFindings || !strings.Contains(rout, "REPRODUCED") {
		t.Errorf("replay of %s: code %d, want %d:\n%s", fd.Schedule, rcode, exitFindings, rout)
	}
}
