package explore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestParsePlain reads a plain run's output: the log entries, the failure,
// and the goroutines the wrapper listed (the standard library's and its
// own are not the test's).
func TestParsePlain(t *testing.T) {
	t.Parallel()
	stdout := "=== RUN   TestInterleavePlain\n=== RUN   TestInterleavePlain/plain/TestX\n" +
		"    x_test.go:10: connecting\n" +
		"    x_test.go:12: got 1, want 2\n" +
		"        more words\n" +
		"--- FAIL: TestInterleavePlain/plain/TestX (0.00s)\n"
	stderr := plainLeftMarker + "goroutine 7 [chan receive]:\nm/p.(*Cache).janitor(0xc000010000)\n\t/src/m/p/p.go:26 +0x25\ncreated by m/p.New in goroutine 6\n\t/src/m/p/p.go:20 +0x85\n\n" + plainEndMarker + "\n" +
		plainLeftMarker + "goroutine 3 [select]:\nos/signal.loop()\n\t" + goroot() + "/src/os/signal/signal_unix.go:23 +0x13\n" + plainEndMarker + "\n"
	r := parsePlain(stdout, stderr)
	if !r.failed || r.crash != nil || r.timedOut {
		t.Errorf("failed %v, crash %v, timed out %v; want a plain test failure", r.failed, r.crash, r.timedOut)
	}
	if len(r.logs) != 2 || !strings.Contains(r.logs[1], "more words") {
		t.Errorf("logs %q, want two entries, the second with its continuation", r.logs)
	}
	if len(r.left) != 1 || r.left[0].Site != "/src/m/p/p.go:26" {
		t.Fatalf("left %+v, want the janitor only", r.left)
	}

	r = parsePlain("", "panic: boom\n\ngoroutine 9 [running]:\nm/p.f()\n\t/src/m/p/p.go:40 +0x1\n")
	if r.crash == nil || r.crash.kind != checks.Panic || r.crash.site != "/src/m/p/p.go:40" {
		t.Errorf("crash %+v, want a panic at p.go:40", r.crash)
	}
}

// TestSameAsPlain: a failure is plain go test's too only when plain go
// test fails the same way.
func TestSameAsPlain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := "package p\n\nfunc TestX(t *testing.T) {\n\tt.Logf(\"connecting\")\n\tt.Fatalf(\"got 1\")\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	janitor := checks.Goroutine{Stack: []checks.Frame{
		{Func: "m/p.(*Cache).janitor", File: "/src/m/p/p.go", Line: 26},
		{Func: "m/p.New.func1", File: "/src/m/p/p.go", Line: 20},
	}}
	other := checks.Goroutine{Stack: []checks.Frame{{Func: "m/p.serve", File: "/src/m/p/p.go", Line: 50}}}
	leak := &failure{kind: checks.Leak, goroutines: []checks.Goroutine{janitor}}
	plainLeak := checks.Goroutine{Stack: []checks.Frame{{Func: "m/p.(*Cache).janitor", File: "/other/p/p.go", Line: 26}}}
	loop := checks.Goroutine{ID: "g1", State: "Once.Do", Stack: []checks.Frame{
		{Func: "m/p.(*Logger).mill", File: "/src/m/p/p.go", Line: 1078},
		{Func: "m/p.(*Logger).rotate", File: "/src/m/p/p.go", Line: 900},
		{Func: "m/p.(*Logger).runScheduledRotations", File: "/src/m/p/p.go", Line: 536},
	}}
	millGo := checks.Goroutine{ID: "g2", State: "chan receive", Stack: []checks.Frame{{Func: "m/p.(*Logger).millRun", File: "/src/m/p/p.go", Line: 1067}}}
	rotation := &failure{kind: checks.Leak, message: rt.LeakRunning + "4000 decisions later, the last 2000 fair: g1 running at Once.Do at p.go:1078; g2 blocked on chan receive at p.go:1067", goroutines: []checks.Goroutine{loop, millGo}}
	plainLoop := checks.Goroutine{Stack: []checks.Frame{{Func: "m/p.(*Logger).runScheduledRotations", File: "/src/m/p/p.go", Line: 540}}}

	cases := []struct {
		name string
		f    *failure
		r    plainRun
		want bool
	}{
		{"leak of the same goroutine", leak, plainRun{left: []checks.Goroutine{plainLeak}}, true},
		{"leak, plain leaves nothing", leak, plainRun{}, false},
		{"leak of another goroutine", leak, plainRun{left: []checks.Goroutine{other}}, false},
		// timberjack's rotation loop: under the virtual clock it ran on to
		// its next rotation, which started the mill goroutine; plain go
		// test leaves the loop waiting on its real timer.
		{"running leak, its loop left blocked by plain", rotation, plainRun{left: []checks.Goroutine{plainLoop}}, true},
		{"running leak, plain leaves only what the loop started", rotation, plainRun{left: []checks.Goroutine{millGo}}, false},
		{"test failure at the same line", &failure{kind: checks.TestFailure, message: "test failed: x_test.go:5: got 1"},
			plainRun{failed: true, logs: []string{"x_test.go:4: connecting", "x_test.go:5: got 1"}}, true},
		{"test failure, plain passes", &failure{kind: checks.TestFailure, message: "test failed: x_test.go:5: got 1"},
			plainRun{logs: []string{"x_test.go:4: connecting"}}, false},
		{"test failure elsewhere", &failure{kind: checks.TestFailure, message: "test failed: x_test.go:5: got 1"},
			plainRun{failed: true, logs: []string{"x_test.go:9: other"}}, false},
		{"panic at the same site", &failure{kind: checks.Panic, message: "panic: boom", site: "/a/p/p.go:40"},
			plainRun{failed: true, crash: &failure{kind: checks.Panic, message: "panic: other words", site: "/b/p/p.go:40"}}, true},
		{"panic, plain times out", &failure{kind: checks.Panic, message: "panic: boom", site: "/a/p/p.go:40"},
			plainRun{failed: true, timedOut: true}, false},
		{"os.Exit, same status", &failure{kind: checks.Fatal, message: "os.Exit(3) called during the test: the test binary ends without reporting"},
			plainRun{failed: true, exitCode: 3}, true},
		{"os.Exit, plain passes", &failure{kind: checks.Fatal, message: "os.Exit(3) called during the test: the test binary ends without reporting"},
			plainRun{exitCode: 0}, false},
		{"deadlock, plain hangs", &failure{kind: checks.Deadlock}, plainRun{failed: true, timedOut: true}, true},
		{"deadlock, plain passes", &failure{kind: checks.Deadlock}, plainRun{}, false},
	}
	for _, c := range cases {
		if got := sameAsPlain(c.f, c.r, dir); got != c.want {
			t.Errorf("%s: sameAsPlain = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestSameGoroutineBySource: a plain run's goroutine and a finding's are
// the same when their frames are in one function literal of the source,
// whatever the compiler named it (the rewrite lets it inline the function
// that starts the goroutine, which renames the literal); a goroutine of
// another literal in the same file, or at the same line of another file,
// is not the same.
func TestSameGoroutineBySource(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "p.go")
	src := `package p

func (j *janitor) run(cleanup func()) {
	go func() {
		for {
			select {
			case <-j.t.C:
				cleanup()
			case <-j.done:
				return
			}
		}
	}()
}

func (j *janitor) other() {
	go func() {
		<-j.done
	}()
}
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	controlled := checks.Goroutine{Stack: []checks.Frame{
		{Func: "m/p.(*Cache[...]).deleteExpired", File: filepath.Join(dir, "c.go"), Line: 40},
		{Func: "m/p.New[...].(*janitor).run.func2", File: file, Line: 8},
	}}
	plain := func(fn string, f string, line int) plainRun {
		return plainRun{left: []checks.Goroutine{{Stack: []checks.Frame{{Func: fn, File: f, Line: line}}}}}
	}
	leak := &failure{kind: checks.Leak, goroutines: []checks.Goroutine{controlled}}
	cases := []struct {
		name string
		r    plainRun
		want bool
	}{
		{"the same literal, named otherwise", plain("m/p.(*janitor).run.func1", file, 6), true},
		{"another literal of the file", plain("m/p.(*janitor).other.func1", file, 18), false},
		{"the same line of another file", plain("m/p.(*janitor).run.func1", filepath.Join(dir, "q.go"), 6), false},
	}
	for _, c := range cases {
		if got := sameAsPlain(leak, c.r, dir); got != c.want {
			t.Errorf("%s: sameAsPlain = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestFailureEntry: a test failure's words are the first entry that is
// not a t.Log call.
func TestFailureEntry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := "package p\n\nfunc TestX(t *testing.T) {\n\tt.Logf(\"connecting to %s\", addr)\n\tt.Log(\"more\")\n\tt.Fatalf(\"err: %v\", err)\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "x_test.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	logs := []string{"x_test.go:4: connecting to tcp: [::]:1", "x_test.go:5: more", "x_test.go:6: err: EOF"}
	if got := failureEntry(logs, dir); got != logs[2] {
		t.Errorf("failureEntry = %q, want the Fatalf's", got)
	}
	// Without the source, the first entry.
	if got := failureEntry(logs, t.TempDir()); got != logs[0] {
		t.Errorf("failureEntry without source = %q, want the first", got)
	}
	// A helper of another package logs under its own file's base name,
	// not found here: the assertion of the test's own file comes first.
	helper := append([]string{"btesting.go:54: Opening bbolt DB at: /tmp/db"}, logs...)
	if got := failureEntry(helper, dir); got != logs[2] {
		t.Errorf("failureEntry after a helper's log = %q, want the Fatalf's", got)
	}
	f := &failure{kind: checks.TestFailure, message: "test failed"}
	withLog(f, logs, nil, dir)
	if f.message != "test failed: x_test.go:6: err: EOF" {
		t.Errorf("message %q", f.message)
	}
}

func TestAssertionWords(t *testing.T) {
	t.Parallel()
	entry := "scheduler_test.go:356: \n\tError Trace:\t/x/scheduler_test.go:356\n\tError:      \tShould be true\n\tTest:       \tTestX\n\tMessages:   \tjobs did not stop\n"
	if got, want := assertionWords(entry), "scheduler_test.go:356: Should be true: jobs did not stop"; got != want {
		t.Errorf("assertionWords = %q, want %q", got, want)
	}
	// An assertion's values, on the lines under Error: (testify since
	// v1.2, a Diff: block after them) or before v1.2: kept, for repro.
	for entry, want := range map[string]string{
		"scope_test.go:351: \n\tError Trace:\t/x/scope_test.go:351\n\t            \t\t\t\t/x/scope_test.go:359\n\tError:      \tNot equal: \n\t            \texpected: 1\n\t            \tactual  : 0\n\tTest:       \tTestX\n":                                           "scope_test.go:351: Not equal: expected: 1 actual : 0",
		"x_test.go:9: \n\tError Trace:\tx_test.go:9\n\tError:      \tNot equal: \n\t            \texpected: \"a\"\n\t            \tactual  : \"b\"\n\t            \t\n\t            \tDiff:\n\t            \t--- Expected\n\tTest:       \tTestX\n\tMessages:   \tname\n": `x_test.go:9: Not equal: expected: "a" actual : "b": name`,
		"x_test.go:9: \n\tError Trace:\tx_test.go:9\n\tError:\t\tNot equal: 1 (expected)\n\t\t\t!= 0 (actual)\n":                                                                                                                                                          "x_test.go:9: Not equal: 1 (expected) != 0 (actual)",
		// A retry helper's site before testify's (memberlist's
		// TestMemberlist_UserData through consul's sdk/testutil/retry).
		"retry.go:123: assertions.go:388: \n\tError Trace:\t/x/memberlist_test.go:1425\n\tError:      \tShould be true\n\tMessages:   \tno user data\n": "retry.go:123: assertions.go:388: Should be true: no user data",
	} {
		if got := assertionWords(entry); got != want {
			t.Errorf("assertionWords = %q, want %q", got, want)
		}
	}
	for _, plain := range []string{"x_test.go:3: got 1, want 2", "x_test.go:3: \nno labels here"} {
		if got := assertionWords(plain); got != plain {
			t.Errorf("assertionWords(%q) = %q, want it unchanged", plain, got)
		}
	}
}

// TestPlainLabel: plain go test "fails too" only when a run exited
// non-zero the way the finding fails; a leak whose goroutines a run left
// behind with exit 0 is "passes (exit 0)", whatever the wrapper saw.
func TestPlainLabel(t *testing.T) {
	t.Parallel()
	spinner := checks.Goroutine{Stack: []checks.Frame{{Func: "m/p.spin", File: "/src/m/p/p_test.go", Line: 20}}}
	blocked := &failure{kind: checks.Leak, message: rt.LeakBlocked + "g1 blocked on chan send at p_test.go:20", goroutines: []checks.Goroutine{spinner}}
	failed := &failure{kind: checks.TestFailure, message: "test failed: p_test.go:9: sum = 0, want 6"}
	sameFail := plainRun{exitCode: 1, failed: true, logs: []string{"p_test.go:9: sum = 0, want 6"}}
	otherFail := plainRun{exitCode: 1, failed: true, logs: []string{"p_test.go:30: other"}}
	cmd := "go test -race -run '^TestX$'"
	raced := parsePlain("--- FAIL: TestX\n", "==================\nWARNING: DATA RACE\nWrite at 0x00c by goroutine 8:\n  m/p.inc()\n      /src/m/p/p.go:7 +0x44\n\nPrevious read at 0x00c by goroutine 7:\n  m/p.get()\n      /src/m/p/p.go:12 +0x3a\n==================\n")
	raced.exitCode = 1
	cases := []struct {
		name  string
		f     *failure
		o     *plainOutcome
		fails bool
		label string
	}{
		{"leak left with exit 0", blocked, &plainOutcome{command: cmd, runs: []plainRun{{left: []checks.Goroutine{spinner}}}}, false,
			"plain go test passes (exit 0, 1 run of go test -race -run '^TestX$'), leaving the same goroutines behind"},
		{"leak left, the run failed on another check", blocked, &plainOutcome{command: cmd, runs: []plainRun{{left: []checks.Goroutine{spinner}, exitCode: 1, failed: true, logs: []string{"p_test.go:30: took 2s, want < 1s"}}}}, false,
			"plain go test does not fail this way (1 run of go test -race -run '^TestX$'; one failed otherwise, exit 1: p_test.go:30: took 2s, want < 1s), leaving the same goroutines behind"},
		{"leak left, goleak failed the run", blocked, &plainOutcome{command: cmd, runs: []plainRun{{left: []checks.Goroutine{spinner}, exitCode: 1, failed: true, logs: []string{"leaks.go:78: found unexpected goroutines:\n[Goroutine 7 in state chan send]"}}}}, true,
			"plain go test fails too (1 of 1 run of go test -race -run '^TestX$': exit 1: leaks.go:78: found unexpected goroutines:)"},
		{"leak, run exits 0 clean", blocked, &plainOutcome{command: cmd, runs: []plainRun{{}, {}, {}}}, false,
			"plain go test passes (exit 0, 3 runs of go test -race -run '^TestX$')"},
		{"same failure, exit 1", failed, &plainOutcome{command: cmd, runs: []plainRun{{}, sameFail}}, true,
			"plain go test fails too (1 of 2 runs of go test -race -run '^TestX$': exit 1: p_test.go:9: sum = 0, want 6)"},
		{"another failure", failed, &plainOutcome{command: cmd, runs: []plainRun{otherFail}}, false,
			"plain go test does not fail this way (1 run of go test -race -run '^TestX$'; one failed otherwise, exit 1: p_test.go:30: other)"},
		{"race at the same site", &failure{kind: checks.DataRace, site: "/src/m/p/p.go:7"}, &plainOutcome{command: cmd, runs: []plainRun{raced}}, true,
			"plain go test fails too (1 of 1 run of go test -race -run '^TestX$': exit 1: WARNING: DATA RACE)"},
		{"race elsewhere", &failure{kind: checks.DataRace, site: "/src/m/p/q.go:7"}, &plainOutcome{command: cmd, runs: []plainRun{raced}}, false,
			"plain go test does not fail this way (1 run of go test -race -run '^TestX$'; one failed otherwise, exit 1: WARNING: DATA RACE)"},
		{"could not run", failed, &plainOutcome{command: cmd, err: errors.New("does not build\nmore")}, false,
			"plain go test not run: does not build"},
	}
	for _, c := range cases {
		p := c.o.label(c.f, t.TempDir())
		if p.Fails() != c.fails || p.Label() != c.label {
			t.Errorf("%s: Fails %v, Label %q; want %v, %q", c.name, p.Fails(), p.Label(), c.fails, c.label)
		}
	}
}

// TestSiblingSameTest: a failure at the site of the one the tool caused on
// the test's own unperturbed schedule (plain go test passes) is the tool's
// too, whatever numbers its message carries. go-pkgz/pool's
// TestPool_WaitTimeAccuracy failed "wait time (436µs) should be greater
// than 35ms" on its unperturbed schedule (a note) and "(4.634059ms)" on a
// later one, which was reported as a finding.
func TestSiblingSameTest(t *testing.T) {
	t.Parallel()
	site := "/src/pool/pool_test.go:630"
	tools := []toolFailure{{pkg: "example.com/pool", test: "TestPool_WaitTimeAccuracy",
		msg: normalizeMessage("test failed: pool_test.go:630: wait time (436.686µs) should be greater than 35ms"), site: site}}
	tg := &target{pkg: rewrite.Package{ImportPath: "example.com/pool"}, name: "TestPool_WaitTimeAccuracy"}
	f := &failure{kind: checks.TestFailure, message: "test failed: pool_test.go:630: wait time (4.634059ms) should be greater than 35ms", site: site}
	if got := sibling(tools, tg, f); got == nil || got.test != "TestPool_WaitTimeAccuracy" {
		t.Errorf("sibling = %+v, want the test itself", got)
	}
	other := &target{pkg: rewrite.Package{ImportPath: "example.com/other"}, name: "TestPool_WaitTimeAccuracy"}
	if got := sibling(tools, other, f); got != nil {
		t.Errorf("another package: sibling = %+v, want none", got)
	}
}

// TestSiblingOtherTests: a failure the tool caused on one test's
// unperturbed schedule (plain go test passes) files another test's
// failure as the tool's only when both have the same words at the same
// place. Not the words alone: every generated test of a package failed
// "test failed: interleave_gen_test.go:#: not linearizable: the
// concurrent calls gave" (genRun's t.Fatalf, through t.Helper each
// test's own line), so one generated test the tool failed filed every
// true generated finding as the tool's (the gen kernel toolsuspect:
// Probe's note took Score's lost update). Not the place alone: another
// panic in the helper a server-starting test panics in is no sign of
// the tool. Both: the server helper's panic in a sibling test (the NATS
// client of issue 21, explore's toolsibling).
func TestSiblingOtherTests(t *testing.T) {
	t.Parallel()
	pkg := rewrite.Package{ImportPath: "example.com/p"}
	tg := func(name string) *target { return &target{pkg: pkg, name: name} }
	fail := func(kind checks.FailureKind, msg, site string) *failure {
		return &failure{kind: kind, message: msg, site: site}
	}
	const gen = "/src/p/interleave_gen_test.go"
	genMsg := func(line int, what string) string {
		return fmt.Sprintf("test failed: interleave_gen_test.go:%d: not linearizable: %sthe concurrent calls gave\n\t\tgoroutine 1: ...", line, what)
	}
	probe := fail(checks.TestFailure, genMsg(56, ""), gen+":55")
	server := fail(checks.Panic, "panic: Unable to start server: address in use", "/src/p/helper_test.go:30")
	helperFatal := fail(checks.TestFailure, "test failed: helper_test.go:41: server did not start", "/src/p/a_test.go:12")
	tools := []toolFailure{
		toolFailureOf(tg("TestInterleaveGen_Probe_1"), probe),
		toolFailureOf(tg("TestStartsServer"), server),
		toolFailureOf(tg("TestA"), helperFatal),
		toolFailureOf(tg("TestC"), fail(checks.TestFailure, "test failed", "/src/p/c_test.go:5")),
	}
	cases := []struct {
		name, test string
		f          *failure
		want       string
	}{
		{"another generated test, the old first line", "TestInterleaveGen_Score_0", fail(checks.TestFailure, genMsg(88, ""), gen+":87"), ""},
		{"another generated test, its first line naming its calls", "TestInterleaveGen_Score_0", fail(checks.TestFailure, genMsg(88, "Score: Inc() ∥ Inc(): "), gen+":87"), ""},
		{"the generated test itself", "TestInterleaveGen_Probe_1", fail(checks.TestFailure, genMsg(56, ""), gen+":55"), "TestInterleaveGen_Probe_1"},
		{"another panic in the server helper", "TestStartsServerLate", fail(checks.Panic, "panic: runtime error: index out of range [3] with length 3", "/src/p/helper_test.go:30"), ""},
		{"the server helper's panic in a sibling", "TestStartsServerLate", fail(checks.Panic, "panic: Unable to start server: address in use", "/src/p/helper_test.go:30"), "TestStartsServer"},
		{"the same words elsewhere", "TestB", fail(checks.TestFailure, "test failed: b_test.go:41: server did not start", "/src/p/b_test.go:20"), ""},
		{"the same words at the helper's line", "TestB", fail(checks.TestFailure, "test failed: helper_test.go:41: server did not start", "/src/p/b_test.go:20"), "TestA"},
		{"a test failure with no entry, worded alike", "TestB", fail(checks.TestFailure, "test failed", "/src/p/b_test.go:20"), ""},
	}
	for _, c := range cases {
		got := ""
		if tf := sibling(tools, tg(c.test), c.f); tf != nil {
			got = tf.test
		}
		if got != c.want {
			t.Errorf("%s: sibling = %q, want %q", c.name, got, c.want)
		}
	}
	if got := sibling(tools, &target{pkg: rewrite.Package{ImportPath: "example.com/q"}, name: "TestStartsServerLate"}, server); got != nil {
		t.Errorf("another package: sibling = %+v, want none", got)
	}
}

// TestSiblingNoteSaysPlain: a finding labelPlain files as the tool's,
// after a failure noted in a sibling test, says what plain go test did
// with that test: it passed, or it failed every run another way
// (hedgedhttp's TestNoTimeout was told "as TestClient does on its
// unperturbed schedule where plain go test passes", while TestClient's
// own note said plain go test failed it too, another way).
func TestSiblingNoteSaysPlain(t *testing.T) {
	t.Parallel()
	pkg := rewrite.Package{ImportPath: "example.com/p", Dir: t.TempDir()}
	msg := "panic: Unable to start server: address in use"
	for _, c := range []struct {
		sibling *plainOutcome
		want    string
	}{
		{&plainOutcome{tested: "3 runs", runs: []plainRun{{}, {}, {}}}, "as TestA does on its unperturbed schedule where plain go test passes, "},
		{&plainOutcome{tested: "3 runs", runs: []plainRun{{failed: true, exitCode: 1}, {failed: true, exitCode: 1}}}, "as TestA does on its unperturbed schedule where plain go test fails only another way, "},
	} {
		a := &target{pkg: pkg, name: "TestA", plainGo: c.sibling}
		b := &target{pkg: pkg, name: "TestB", plainGo: &plainOutcome{tested: "3 runs", runs: []plainRun{{}, {}, {}}}}
		tools := []toolFailure{toolFailureOf(a, &failure{kind: checks.Panic, message: msg, site: "/src/p/helper_test.go:30"})}
		s := &search{
			failures: map[string]*failure{"b": {kind: checks.Panic, message: msg, site: "/src/p/helper_test.go:30"}},
			owners:   map[string]*target{"b": b},
		}
		fs := []checks.Finding{{Frequency: &checks.Frequency{Failing: 1, Schedules: 4}}}
		kept, _ := s.labelPlain(context.Background(), fs, []string{"b"}, tools)
		if len(kept) != 0 || len(s.notes) != 1 {
			t.Fatalf("kept %d findings, notes %q: want TestB's failure a note", len(kept), s.notes)
		}
		if !strings.HasPrefix(s.notes[0], "TestB: not reported, most likely the tool's doing") || !strings.Contains(s.notes[0], c.want) {
			t.Errorf("note %q, want it to say %q", s.notes[0], c.want)
		}
	}
}

// TestStressTimeoutCoversWaits: a stress run of stressMin runs of a test
// that waits 100 ms gets time for them, not only twice the window.
func TestStressTimeoutCoversWaits(t *testing.T) {
	t.Parallel()
	if got := stressTimeout(3*time.Second, stressMin, 100*time.Millisecond, 300*time.Millisecond); got < time.Duration(stressMin)*100*time.Millisecond {
		t.Errorf("stress timeout %v for %d runs of 100 ms", got, stressMin)
	}
	if got := stressTimeout(3*time.Second, 1000, 0, 300*time.Millisecond); got != 6300*time.Millisecond {
		t.Errorf("stress timeout %v for a test that does not wait, want twice the window and a run", got)
	}
}

// TestPlainHangRunsOnce: a plain go test run that hangs (killed at its
// timeout) is not run again as go test runs it, which would hang for
// another timeout (10 s and more a deadlock's plain check: e2e
// TestPRGenOnBase's generated deadlock took 18.8 s of its search, now 8.8 s).
// A run that fails is (plainOnce).
func TestPlainHangRunsOnce(t *testing.T) {
	t.Parallel()
	s, tg, dir := newFakeSearch(t, "TestHangs", fakeBudget, 1)
	count := filepath.Join(dir, "runs")
	bin := filepath.Join(dir, "plain.test")
	script := "#!/bin/sh\necho run >> " + count + "\ncase \"$" + plainTestEnv + " $*\" in *Fails*) echo '--- FAIL: TestFails (0.00s)'; exit 1;; esac\nexec sleep 30\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	runs := func() int {
		b, _ := os.ReadFile(count)
		os.Remove(count)
		return strings.Count(string(b), "run")
	}
	r, err := s.plainOnce(context.Background(), tg, bin, time.Second)
	if err != nil || !r.timedOut {
		t.Fatalf("run %+v, %v; want it timed out", r, err)
	}
	if n := runs(); n != 1 {
		t.Errorf("a plain run that hung ran %d times, want once", n)
	}
	tg.name = "TestFails"
	r, _ = s.plainOnce(context.Background(), tg, bin, 5*time.Second)
	if n := runs(); !r.failed || n != 2 {
		t.Errorf("a plain run that failed: failed %v, ran %d times, want twice (again as go test runs it)", r.failed, n)
	}
}
