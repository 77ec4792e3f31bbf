package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/testctx"
	"github.com/interleave-dev/interleave/report"
)

func TestParseTestFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		ok      bool
		code    int
		check   func(t *testing.T, o testOptions)
		wantErr string
	}{
		{name: "defaults", args: nil, ok: true, check: func(t *testing.T, o testOptions) {
			if o.budget != 60*time.Second || o.watchdog != 5*time.Second || !o.race || o.strategy != "portfolio" || o.targets != nil || o.format != "text" || o.schedules != ".interleave/schedules" {
				t.Errorf("got %+v, want defaults", o)
			}
			if len(o.patterns) != 1 || o.patterns[0] != "." {
				t.Errorf("got patterns %q, want [.]", o.patterns)
			}
			if o.seedSet {
				t.Error("seedSet without -seed")
			}
		}},
		{name: "all flags", args: []string{"-run", "TestA|TestB", "-budget", "2m", "-seed", "42", "-race=false", "-schedules", "out", "-workers", "3", "-format", "sarif", "-o", "r.sarif", "-watchdog", "2s", "./a/...", "./b"}, ok: true, check: func(t *testing.T, o testOptions) {
			if o.watchdog != 2*time.Second {
				t.Errorf("watchdog = %v, want 2s", o.watchdog)
			}
			if o.run != "TestA|TestB" || o.budget != 2*time.Minute || o.seed != 42 || !o.seedSet || o.race || o.schedules != "out" || o.workers != 3 || o.format != "sarif" || o.output != "r.sarif" {
				t.Errorf("got %+v", o)
			}
			if strings.Join(o.patterns, " ") != "./a/... ./b" {
				t.Errorf("got patterns %q", o.patterns)
			}
		}},
		{name: "first", args: []string{"-first"}, ok: true, check: func(t *testing.T, o testOptions) {
			if !o.first {
				t.Error("-first not set")
			}
		}},
		{name: "seed zero is explicit", args: []string{"-seed", "0"}, ok: true, check: func(t *testing.T, o testOptions) {
			if o.seed != 0 || !o.seedSet {
				t.Errorf("got seed %d set %v, want 0 set", o.seed, o.seedSet)
			}
		}},
		{name: "bad strategy", args: []string{"-strategy", "dfs"}, code: exitError, wantErr: "valid values are portfolio, random, pct, pos"},
		{name: "bad strategy in a list", args: []string{"-strategy", "pct,dfs"}, code: exitError, wantErr: `unknown -strategy "pct,dfs"`},
		{name: "strategy list and targets", args: []string{"-strategy", "pct,pos", "-target", "a/b.go:12, c.go:3"}, ok: true, check: func(t *testing.T, o testOptions) {
			if o.strategy != "pct,pos" || strings.Join(o.targets, " ") != "a/b.go:12 c.go:3" {
				t.Errorf("got strategy %q targets %q", o.strategy, o.targets)
			}
		}},
		{name: "bad target", args: []string{"-target", "b.go"}, code: exitError, wantErr: `-target: "b.go" is not file:line`},
		{name: "bad target line", args: []string{"-target", "b.go:0"}, code: exitError, wantErr: "line must be a positive number"},
		{name: "bad format", args: []string{"-format", "xml"}, code: exitError, wantErr: "valid values are text, json, sarif"},
		{name: "zero budget", args: []string{"-budget", "0s"}, code: exitError, wantErr: "-budget must be positive"},
		{name: "bad duration", args: []string{"-budget", "soon"}, code: exitError, wantErr: "invalid value"},
		{name: "zero watchdog", args: []string{"-watchdog", "0s"}, code: exitError, wantErr: "-watchdog must be positive"},
		{name: "negative workers", args: []string{"-workers", "-1"}, code: exitError, wantErr: "-workers must not be negative"},
		{name: "negative count", args: []string{"-count", "-1"}, code: exitError, wantErr: "-count must not be negative"},
		{name: "bad run", args: []string{"-run", "Test("}, code: exitError, wantErr: "bad -run pattern"},
		{name: "bad run element", args: []string{"-run", "TestA/ok/(x"}, code: exitError, wantErr: `bad -run pattern: element 2 of "TestA/ok/(x" ("(x")`},
		{name: "bad skip element", args: []string{"-skip", "TestA/(x"}, code: exitError, wantErr: `bad -skip pattern: element 1 of "TestA/(x" ("(x")`},
		{name: "help", args: []string{"-h"}, code: exitOK, wantErr: "Usage: interleave test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &stderr, dir: t.TempDir()}
			o, code, ok := parseTestFlags(env, tt.args)
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v (stderr %q)", ok, tt.ok, stderr.String())
			}
			if !ok && code != tt.code {
				t.Errorf("code = %d, want %d", code, tt.code)
			}
			if tt.wantErr != "" && !strings.Contains(stderr.String(), tt.wantErr) {
				t.Errorf("stderr = %q, want it to contain %q", stderr.String(), tt.wantErr)
			}
			if tt.check != nil {
				tt.check(t, o)
			}
		})
	}
}

func TestParseReplayFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		ok   bool
		code int
		want string
	}{
		{name: "file", args: []string{"s.json"}, ok: true, want: "s.json"},
		{name: "none", args: nil, code: exitError},
		{name: "two", args: []string{"a.json", "b.json"}, code: exitError},
		{name: "help", args: []string{"-h"}, code: exitOK},
		{name: "watchdog", args: []string{"-watchdog", "1s", "s.json"}, ok: true, want: "s.json"},
		{name: "zero watchdog", args: []string{"-watchdog", "0s", "s.json"}, code: exitError},
		{name: "tries", args: []string{"-tries", "5", "s.json"}, ok: true, want: "s.json"},
		{name: "zero tries", args: []string{"-tries", "0", "s.json"}, code: exitError},
		{name: "negative tries", args: []string{"-tries", "-1", "s.json"}, code: exitError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, dir: dir}
			o, code, ok := parseReplayFlags(env, tt.args)
			if ok != tt.ok || (!ok && code != tt.code) {
				t.Fatalf("ok, code = %v, %d, want %v, %d", ok, code, tt.ok, tt.code)
			}
			if ok && o.file != filepath.Join(dir, tt.want) {
				t.Errorf("file = %q, want it resolved against the working directory", o.file)
			}
		})
	}
}

func TestRunTestBadInput(t *testing.T) {
	// A directory outside any module: the search cannot start.
	dir := t.TempDir()
	var stderr bytes.Buffer
	env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &stderr, dir: dir}
	code := runMain(context.Background(), env, []string{"test", "-budget", "1s", "-seed", "1", "."})
	if code != exitError {
		t.Errorf("code = %d, want %d (stderr %q)", code, exitError, stderr.String())
	}
	if !strings.Contains(stderr.String(), "seed 1") {
		t.Errorf("stderr = %q, want the seed printed", stderr.String())
	}
}

func TestRunReplayBadFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"nope": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"replay", bad}, {"replay", filepath.Join(dir, "missing.json")}} {
		var stderr bytes.Buffer
		env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &stderr, dir: dir}
		if code := runMain(context.Background(), env, args); code != exitError {
			t.Errorf("%v: code = %d, want %d", args, code, exitError)
		}
		if !strings.Contains(stderr.String(), "interleave replay:") {
			t.Errorf("%v: stderr = %q, want an explanation", args, stderr.String())
		}
	}
}

func TestWriteReportAtomic(t *testing.T) {
	dir := t.TempDir()
	env := &cliEnv{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, dir: dir}
	w, err := report.New("json")
	if err != nil {
		t.Fatal(err)
	}
	rep := &report.Report{Findings: []checks.Finding{{Rule: "IL9003", Message: "TestX: deadlock", Evidence: checks.Dynamic, Kind: checks.Deadlock}}, Root: dir}
	if err := writeReport(env, w, rep, "out.json"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "out.json"))
	if err != nil || !strings.Contains(string(b), "IL9003") {
		t.Fatalf("out.json = %q, %v; want the finding", b, err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("dir holds %d entries, want only out.json (no temp files left)", len(entries))
	}
	// interleave test -o r.json is read by the next CI step, maybe as
	// another user.
	if st, err := os.Stat(filepath.Join(dir, "out.json")); err != nil {
		t.Error(err)
	} else if st.Mode().Perm() != 0o644 {
		t.Errorf("out.json has mode %v, want 0644", st.Mode().Perm())
	}
	if err := writeReport(env, w, rep, filepath.Join("missing", "out.json")); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

// robustDir is the module of awkward tests of checks/dynamic.
var robustDir = filepath.Join("..", "..", "checks", "dynamic", "testdata", "robust")

// TestRunTestRobustExitCodes runs `interleave test` on the packages of
// testdata/robust whose outcome is an exit code: no tests (0, and 2 for a
// -run that matches nothing), a compile error (2, with the compiler's words).
func TestRunTestRobustExitCodes(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(robustDir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no tests", []string{"./notests"}, exitOK, []string{"nothing to search: no tests to run: no Test functions in ./notests"}},
		{"run matches nothing", []string{"-run", "TestNothing", "./notests"}, exitError, []string{`matches -run "TestNothing"`}},
		{"does not compile", []string{"./broken"}, exitError, []string{"./broken does not compile", "broken_test.go:6:", "cannot use"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			env := &cliEnv{stdout: &stdout, stderr: &stderr, dir: dir}
			args := append([]string{"test", "-budget", "1s", "-seed", "1", "-race=false", "-schedules", t.TempDir()}, tt.args...)
			if code := runMain(context.Background(), env, args); code != tt.code {
				t.Errorf("code = %d, want %d (stderr %q)", code, tt.code, stderr.String())
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr = %q, want it to contain %q", stderr.String(), w)
				}
			}
		})
	}
}

// TestRunTestMachineBuildFailure: a build or load the machine failed (here
// a go command that says the disk is full when asked for the test binary,
// or for the package list) is exit 2 with the machine named, never "does
// not compile".
func TestRunTestMachineBuildFailure(t *testing.T) {
	dir, err := filepath.Abs(robustDir)
	if err != nil {
		t.Fatal(err)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for _, c := range []struct{ arg, line, want string }{
		{"-c", "compile: writing output: write $WORK/b001/_pkg_.a: no space left on device", "on this machine, which is not the code's doing: the disk is full: compile: writing output"},
		{"list", "go: creating work dir: mkdir /tmp/go-build1: no space left on device", "could not run on this machine, which is not the code's doing: the disk is full: "},
	} {
		t.Run(c.arg, func(t *testing.T) {
			fake := t.TempDir()
			script := "#!/bin/sh\nfor a in \"$@\"; do\n\tif [ \"$a\" = " + c.arg + " ]; then\n\t\techo '# robust/exit' >&2\n\t\techo '" + c.line + "' >&2\n\t\texit 1\n\tfi\ndone\nexec " + goBin + " \"$@\"\n"
			if err := os.WriteFile(filepath.Join(fake, "go"), []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Setenv("PATH", fake+string(os.PathListSeparator)+os.Getenv("PATH"))
			var stdout, stderr bytes.Buffer
			env := &cliEnv{stdout: &stdout, stderr: &stderr, dir: dir}
			args := []string{"test", "-budget", "1s", "-seed", "1", "-race=false", "-schedules", t.TempDir(), "./exit"}
			if code := runMain(context.Background(), env, args); code != exitError {
				t.Errorf("code = %d, want %d (stderr %q)", code, exitError, stderr.String())
			}
			if !strings.Contains(stderr.String(), c.want) || strings.Contains(stderr.String(), "does not compile") {
				t.Errorf("stderr = %q, want the machine named, not the code", stderr.String())
			}
		})
	}
}

// TestRunTestRobustExitFinding: os.Exit in a test is a finding (exit 1)
// naming the call, not a failure of interleave.
func TestRunTestRobustExitFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	t.Parallel()
	dir, err := filepath.Abs(robustDir)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, dir: dir}
	// Ended by -count: the budget only guards the search, its fresh
	// replay of the process's death included (at a load of 30 a 1 s
	// budget ran out before it, and the finding went unreported).
	code := runMain(testctx.New(t), env, []string{"test", "-v", "-budget", "2m", "-count", "1", "-seed", "1", "-race=false", "-format", "json", "-schedules", t.TempDir(), "./exit"})
	if code != exitFindings {
		t.Fatalf("code = %d, want %d (stderr %q)", code, exitFindings, stderr.String())
	}
	var rep report.JSONReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("stdout is not a JSON report: %v\n%s", err, stdout.String())
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Kind != checks.Fatal || !strings.Contains(rep.Findings[0].Message, "os.Exit(3)") || rep.Findings[0].Pos.Line != 18 {
		t.Errorf("findings %+v, want one fatal os.Exit(3) at exit_test.go:18", rep.Findings)
	}
	// How many schedules each test ran: in the JSON, and with -v on
	// standard error.
	if len(rep.Tests) != 1 || rep.Tests[0].Package != "robust/exit" || rep.Tests[0].Test != "TestExits" || rep.Tests[0].Schedules < 1 {
		t.Errorf("tests %+v, want TestExits of robust/exit with its schedules", rep.Tests)
	} else if want := fmt.Sprintf("interleave test: robust/exit TestExits: %d schedules in ", rep.Tests[0].Schedules); !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr = %q, want it to contain %q", stderr.String(), want)
	}
}

func TestProgress(t *testing.T) {
	st := explore.Stats{Schedules: 1234, PerSecond: 617, Findings: 2, Elapsed: 2 * time.Second, Budget: 10 * time.Second, Current: "TestX"}

	var tty bytes.Buffer
	p := &progress{w: &tty, tty: true}
	p.update(explore.Stats{Building: true})
	p.stage(explore.StageEvent{Name: "building the test binary of example.com/p"})
	p.stage(explore.StageEvent{Name: "building the test binary of example.com/p", Done: true, Took: 41234 * time.Millisecond})
	p.update(st)
	if out := tty.String(); !strings.Contains(out, "interleave test: building the test binary of example.com/p …\ninterleave test:   took 41.2s\n") || !strings.Contains(out, "1234 schedules, 617/s, 2 finding(s), 8s left, TestX") {
		t.Errorf("terminal progress = %q", out)
	}
	p.done()
	if p.bar != nil || !strings.HasSuffix(tty.String(), "\r") {
		t.Errorf("done did not clear the bar: %q", tty.String())
	}

	var plain bytes.Buffer
	p = &progress{w: &plain}
	p.update(st)
	p.update(st) // within plainEvery: no second line
	if got := plain.String(); got != "interleave test: 1234 schedules, 617/s, 2 finding(s), 8s left, TestX\n" {
		t.Errorf("plain progress = %q", got)
	}
}

var faninDir = filepath.Join("..", "..", "checks", "dynamic", "testdata", "kernels")

// TestRunTestReportsPlainFailures (issue 21): a leak plain go test passes
// (exit 0) and a failure plain go test has too are findings: exit 1, in
// JSON and in SARIF, each labelled with how often it failed and what plain
// go test did, and each replays.
func TestRunTestReportsPlainFailures(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	dir, err := filepath.Abs(faninDir)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		kind  checks.FailureKind
		fails bool   // plain go test fails too
		label string // in the label
	}{
		"TestFirstErrorStrandsSender": {checks.Leak, false, "plain go test passes (exit 0, "},
		// The sum plain go test sees depends on how many goroutines ran
		// before Wait (0 usually, 3 on a loaded machine).
		"TestSumWaitGroupAddInside": {checks.TestFailure, true, ": exit 1: fanin_test.go:58: sum = "},
		// Its subtest calls the parent's t.Fatalf: go test's failure, not
		// a hang of the parent's t.Run.
		"TestSubtestFailsParent": {checks.TestFailure, true, ": exit 1: fanin_test.go:84: no entry for "},
	}
	schedules := t.TempDir()
	// Both fail on the unperturbed schedule. The search stops at -count,
	// so that the budget (for the search, the replays and the plain go
	// test runs of the labels) is only a guard a loaded machine does not
	// reach.
	var stdout, errb bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &errb, dir: dir}
	code := runMain(context.Background(), env, []string{"test", "-budget", "3m", "-count", "10", "-seed", "1", "-race=false",
		"-format", "json", "-schedules", schedules, "./fanin"})
	out, stderr := stdout.Bytes(), errb.String()
	if code != exitFindings {
		t.Fatalf("code = %d, want %d (stderr %q)", code, exitFindings, stderr)
	}
	var rep report.JSONReport
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("stdout is not a JSON report: %v\n%s", err, out)
	}
	found := map[string]bool{}
	for _, f := range rep.Findings {
		w, ok := want[f.Test]
		if !ok || f.Kind != w.kind {
			t.Errorf("unexpected finding %s %s: %s", f.Test, f.Kind, f.Message)
			continue
		}
		found[f.Test] = true
		if f.Frequency == nil || f.Frequency.Failing < 1 || f.Frequency.Schedules < f.Frequency.Failing {
			t.Errorf("%s: frequency %+v", f.Test, f.Frequency)
		}
		if f.PlainGo == nil || f.PlainGo.Runs == 0 || f.PlainGo.Fails() != w.fails || !strings.Contains(f.PlainGo.Label(), w.label) {
			t.Errorf("%s: plain go test label %q, want fails=%v with %q", f.Test, f.Labels(), w.fails, w.label)
		}
		// Replayed: the schedule fails the same way again (exit 1).
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdout: &stdout, stderr: &stderr, dir: dir}
		if code := runMain(context.Background(), env, []string{"replay", f.Schedule}); code != exitFindings {
			t.Errorf("%s: replay %s: code %d, want %d (stderr %q)", f.Test, f.Schedule, code, exitFindings, stderr.String())
		}
	}
	for test := range want {
		if !found[test] {
			t.Errorf("%s: not reported", test)
		}
	}
	// SARIF: the same findings, the labels in the results' properties.
	// Rendered from the run's findings by -format sarif's writer, not by
	// a second search (the findings' labels cost plain go test runs).
	var fs []checks.Finding
	for _, f := range rep.Findings {
		fs = append(fs, f.Finding)
	}
	w, err := report.New("sarif")
	if err != nil {
		t.Fatal(err)
	}
	var sarif bytes.Buffer
	if err := w.Write(&sarif, &report.Report{Findings: fs, Root: dir, ToolVersion: toolVersion()}); err != nil {
		t.Fatal(err)
	}
	out = sarif.Bytes()
	var doc struct {
		Runs []struct {
			Results []struct {
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Runs) != 1 {
		t.Fatalf("stdout is not SARIF with one run: %v\n%s", err, out)
	}
	labelled := map[string]bool{}
	for _, r := range doc.Runs[0].Results {
		test, _ := r.Properties["test"].(string)
		w, ok := want[test]
		if !ok {
			continue
		}
		l, _ := r.Properties["labels"].(string)
		fails, _ := r.Properties["plainGoTestFails"].(bool)
		if _, ok := r.Properties["failingSchedules"]; !ok || fails != w.fails || !strings.Contains(l, w.label) {
			t.Errorf("%s: SARIF properties %v, want the labels", test, r.Properties)
		}
		labelled[test] = true
	}
	for test := range want {
		if !labelled[test] {
			t.Errorf("%s: not in the SARIF", test)
		}
	}
}

// -v says how far the wall time after the build went past the budget.
func TestOverrun(t *testing.T) {
	for _, c := range []struct {
		took, budget time.Duration
		want         string
	}{
		{31 * time.Second, 30 * time.Second, "3.3% over"},
		{27 * time.Second, 30 * time.Second, "10.0% under"},
		{30 * time.Second, 30 * time.Second, "0.0% under"},
	} {
		if got := overrun(c.took, c.budget); got != c.want {
			t.Errorf("overrun(%v, %v) = %q, want %q", c.took, c.budget, got, c.want)
		}
	}
}

// -v says how many tests ran a schedule, and more than the unperturbed one.
func TestScheduledTests(t *testing.T) {
	tests := []explore.TestStats{{Schedules: 0}, {Schedules: 1}, {Schedules: 7}}
	if got, want := scheduledTests(tests), "2 of 3 tests ran a schedule, 1 more than the unperturbed one"; got != want {
		t.Errorf("scheduledTests = %q, want %q", got, want)
	}
}

// interleave test lets a sleep end before goroutines that could run, as
// pr does (wggonestedselect: a backend's sleep must end before the caller
// closes done); -first still stops each test at its first failure.
func TestTestSearchOptions(t *testing.T) {
	opts := &testOptions{run: "TestA", first: true}
	o := opts.search("/d", []string{"./x"})
	if !o.EarlySleep {
		t.Error("EarlySleep off, want on")
	}
	if o.Dir != "/d" || len(o.Patterns) != 1 || o.Patterns[0] != "./x" || o.Run != "TestA" || o.TestUntil == nil {
		t.Errorf("got dir %q, patterns %q, run %q, TestUntil set %v", o.Dir, o.Patterns, o.Run, o.TestUntil != nil)
	}
}

// partialDir is a module with one package that compiles and fails on some
// schedules (bank) and one whose test does not compile (mocked).
var partialDir = filepath.Join("testdata", "test", "partial")

// TestRunTestSearchesWhatCompiles (issue 23): `interleave test ./...` on a
// module where one package's tests do not compile searches the others, as
// go test ./... tests them: bank's failure is a finding (exit 1) that
// replays, and mocked is named as not searched, with go's error, on
// standard error and in the JSON report's notes.
func TestRunTestSearchesWhatCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	dir, err := filepath.Abs(partialDir)
	if err != nil {
		t.Fatal(err)
	}
	schedules := t.TempDir()
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, dir: dir}
	// Ended by -count with one worker: the same schedules on any machine;
	// the budget is only a guard.
	code := runMain(testctx.New(t), env, []string{"test", "-budget", "5m", "-count", "40", "-workers", "1", "-seed", "1", "-race=false", "-format", "json", "-schedules", schedules, "./..."})
	if code != exitFindings {
		t.Fatalf("code = %d, want %d (stderr %q)", code, exitFindings, stderr.String())
	}
	const notSearched = "partial/mocked: not searched: does not compile\n\tmocked/mocked_test.go:6:7: undefined: NewMockStore"
	if !strings.Contains(stderr.String(), "interleave test: note: "+notSearched) {
		t.Errorf("stderr = %q, want it to contain %q", stderr.String(), notSearched)
	}
	var rep report.JSONReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("stdout is not a JSON report: %v\n%s", err, stdout.String())
	}
	if len(rep.Findings) != 1 || !strings.Contains(rep.Findings[0].Message, "balance -100 after two payments") {
		t.Errorf("findings %+v, want bank's overdraft", rep.Findings)
	}
	found := false
	for _, n := range rep.Notes {
		found = found || n == notSearched
	}
	if !found {
		t.Errorf("JSON notes %q, want %q", rep.Notes, notSearched)
	}
	files, err := filepath.Glob(filepath.Join(schedules, "*.json"))
	if err != nil || len(files) != 1 {
		t.Fatalf("schedule files %v (%v), want the finding's one", files, err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := runMain(testctx.New(t), env, []string{"replay", files[0]}); code != exitFindings || !strings.Contains(stdout.String(), "REPRODUCED") {
		t.Errorf("replay: code = %d, want %d and REPRODUCED (stdout %q, stderr %q)", code, exitFindings, stdout.String(), stderr.String())
	}
}

// TestRunTestRunInLeftOut: a -run that matches only tests of a package
// left out because its tests do not compile says so (exit 2), rather than
// that no test matches.
func TestRunTestRunInLeftOut(t *testing.T) {
	dir, err := filepath.Abs(partialDir)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, dir: dir}
	code := runMain(testctx.New(t), env, []string{"test", "-budget", "1s", "-seed", "1", "-race=false", "-schedules", t.TempDir(), "-run", "TestLookup", "./..."})
	const want = `no test in ./... matches -run "TestLookup"; left out: partial/mocked: not searched: does not compile`
	if code != exitError || !strings.Contains(stderr.String(), want) {
		t.Errorf("code = %d, want %d with %q (stderr %q)", code, exitError, want, stderr.String())
	}
}

// TestRunTestStepBoundNoted: a test whose schedules all stop at the step
// bound is named in a note (stderr and JSON) as inconclusive, with the
// -max-steps that would let it end, not left as "N schedules, 0
// failing"; with a bound it fits under there is no such note.
func TestRunTestStepBoundNoted(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs(filepath.Join("testdata", "test", "stepbound"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		maxSteps string
		noted    bool
	}{{"100", true}, {"5000", false}} {
		t.Run(tt.maxSteps, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			env := &cliEnv{stdout: &stdout, stderr: &stderr, dir: dir}
			args := []string{"test", "-max-steps", tt.maxSteps, "-count", "2", "-workers", "1", "-budget", "2m", "-seed", "1", "-race=false", "-format", "json", "-schedules", t.TempDir(), "."}
			if code := runMain(testctx.New(t), env, args); code != exitOK {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitOK, stderr.String())
			}
			var rep struct{ Notes []string }
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatalf("%v in %s", err, stdout.String())
			}
			// Every schedule (the unperturbed one and -count's) stops there.
			want := regexp.MustCompile(`^TestManySteps: (\d+) of (\d+) schedules stopped at the step bound \(100 scheduling steps\) before the test ended: inconclusive, neither a failure nor a pass; the test needs more steps than that \(try -max-steps 1000\)$`)
			inJSON := slices.ContainsFunc(rep.Notes, func(n string) bool {
				m := want.FindStringSubmatch(n)
				return m != nil && m[1] == m[2]
			})
			onStderr := slices.ContainsFunc(strings.Split(stderr.String(), "\n"), func(l string) bool {
				n, ok := strings.CutPrefix(l, "interleave test: note: ")
				return ok && want.MatchString(n)
			})
			if tt.noted && (!inJSON || !onStderr) {
				t.Errorf("the step bound's note is missing (JSON %v, stderr %v):\n%s\nnotes: %q", inJSON, onStderr, stderr.String(), rep.Notes)
			}
			if !tt.noted && strings.Contains(stderr.String(), "step bound") {
				t.Errorf("a note of the step bound with -max-steps %s:\n%s", tt.maxSteps, stderr.String())
			}
		})
	}
}

// TestRunTestPastDefaultBound: TestLongThenLost's unperturbed schedule
// takes about 22,000 scheduling steps, more than rt.DefaultMaxSteps, and
// its lost update comes only after them. Its unperturbed schedule has
// explore.PlainMaxSteps, the others twice what it took: the lost update is
// reported (exit 1) and its printed replay line reproduces it under the
// bound its schedule records. Before, every schedule stopped at 20,000
// steps: 0 findings, exit 0, a step-bound note. TestPingPong never ends:
// it is still stopped, inconclusive, its unperturbed schedule at
// PlainMaxSteps and the others at the default.
func TestRunTestPastDefaultBound(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "test", "longrun"))
	if err != nil {
		t.Fatal(err)
	}
	search := func(t *testing.T, test string, count int) (int, report.JSONReport, string) {
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdout: &stdout, stderr: &stderr, dir: dir}
		// Ended by -count with one worker: the same schedules on any
		// machine; the budget is only a guard.
		args := []string{"test", "-run", "^" + test + "$", "-count", strconv.Itoa(count), "-workers", "1", "-budget", "5m", "-seed", "1", "-race=false", "-format", "json", "-schedules", t.TempDir(), "."}
		code := runMain(testctx.New(t), env, args)
		var rep report.JSONReport
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("stdout is not a JSON report: %v\n%s", err, stdout.String())
		}
		return code, rep, stderr.String()
	}
	t.Run("TestLongThenLost", func(t *testing.T) {
		t.Parallel()
		code, rep, stderr := search(t, "TestLongThenLost", 10)
		if code != exitFindings || len(rep.Findings) != 1 {
			t.Fatalf("exit %d with %d findings, want %d with the lost update; notes %q\nstderr:\n%s", code, len(rep.Findings), exitFindings, rep.Notes, stderr)
		}
		fd := rep.Findings[0]
		if fd.Kind != checks.TestFailure || !strings.Contains(fd.Message, "longrun_test.go:45: total = 11000, want 22000") {
			t.Errorf("finding %s %q, want the lost update at longrun_test.go:45", fd.Kind, fd.Message)
		}
		if len(rep.Tests) != 1 || rep.Tests[0].PlainSteps <= rt.DefaultMaxSteps || rep.Tests[0].MaxSteps != 2*rep.Tests[0].PlainSteps || rep.Tests[0].StepBound != 0 {
			t.Errorf("tests %+v, want the unperturbed schedule past %d steps and no schedule at the bound", rep.Tests, rt.DefaultMaxSteps)
		}
		line, ok := strings.CutPrefix(fd.Replay, "interleave ")
		if !ok {
			t.Fatalf("replay line %q", fd.Replay)
		}
		rcode, rout := replayIn(t, dir, strings.Fields(line)[1:])
		if rcode != exitFindings || !strings.Contains(rout, "REPRODUCED") || !strings.Contains(rout, fmt.Sprintf("step bound %d", 2*rep.Tests[0].PlainSteps)) {
			t.Errorf("%s: code %d, want %d (reproduced, step bound %d):\n%s", fd.Replay, rcode, exitFindings, 2*rep.Tests[0].PlainSteps, rout)
		}
	})
	t.Run("TestPingPong", func(t *testing.T) {
		t.Parallel()
		code, rep, stderr := search(t, "TestPingPong", 2)
		if code != exitOK || len(rep.Findings) != 0 {
			t.Fatalf("exit %d with %d findings, want %d and none\nstderr:\n%s", code, len(rep.Findings), exitOK, stderr)
		}
		// With the longer unperturbed run when the budget held it
		// (explore/longer.go), without when it did not.
		want := fmt.Sprintf("TestPingPong: 3 of 3 schedules stopped at the step bound (%d scheduling steps, the unperturbed one at %d) before the test ended: inconclusive, neither a failure nor a pass; the test needs more steps than that (try -max-steps %d)",
			rt.DefaultMaxSteps, explore.PlainMaxSteps, 10*explore.PlainMaxSteps)
		longer := fmt.Sprintf("TestPingPong: 3 of 3 schedules stopped at the step bound (%d scheduling steps, the unperturbed one at %d, then at %d) before the test ended: inconclusive, neither a failure nor a pass; the test needs more steps than that (try -max-steps %d)",
			rt.DefaultMaxSteps, explore.PlainMaxSteps, explore.LongerMaxSteps, 10*explore.LongerMaxSteps)
		if !slices.Contains(rep.Notes, want) && !slices.Contains(rep.Notes, longer) {
			t.Errorf("notes %q, want %q or %q", rep.Notes, want, longer)
		}
	})
}
