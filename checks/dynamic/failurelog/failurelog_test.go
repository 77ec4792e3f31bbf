package failurelog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// The logs in testdata are the output of plain go test runs of the bug
// kernels in checks/dynamic/testdata/kernels (bench/dynamic/repro.sh
// makes such logs):
//
//	panic.log     go test -race -count=20000 -run '^TestCloseClosed$' ./chans
//	race.log      go test -race -count=2000 -run '^TestUnsyncCounter$' ./syncs
//	timeout.log   go test -race -count=200000 -timeout=20s -run '^TestABBA$' ./locks
//	asleep.log    go test -count=200000 -timeout=0 -run '^TestABBA$' ./locks
//	testfail.log  go test -race -count=20000 -run '^TestLostUpdate$' ./locks
//	nilmap.log    go test -race -count=20000 -run '^TestNilMapInitOrder$' ./syncs
//	json.log      the first 3 and last 14 lines of go test -json -race -count=20000 -run '^TestCloseClosed$' ./chans
//	fatal-v.log   the last 200 lines of go test -race -count=50000 -v -run '^TestDoubleUnlock$' ./locks
//
// late.log is go test of testdata/late (a module of its own) on a copy
// whose goroutine is slowed as on a loaded machine, lines kept:
// "started <- true; time.Sleep(time.Millisecond)" on line 13, "time"
// imported on line 3, and a 20ms test after TestPoolJobs so that the
// binary is still running when the goroutine fails.
//
// leftover.log is go test -count=10000 -run 'TestNotYet$' of
// testdata/leftover (cmd/interleave's TestReproPlainShown), which
// panicked after 60 s.
func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var inKernels = InModule("kernels")

func TestParse(t *testing.T) {
	tests := []struct {
		log      string
		kind     Kind
		message  string
		pkg      string
		test     string
		from     string
		involved int
		// sig is the expected Signature().String().
		sig string
	}{
		{"panic.log", Panic, "panic: close of closed channel", "kernels/chans", "TestCloseClosed", "the test function's frame", 1,
			`panic "close of closed channel" [chans.(*notifier).shutdown at chans_test.go:59 < chans.TestCloseClosed.func2]`},
		{"race.log", DataRace, "WARNING: DATA RACE", "kernels/syncs", "TestUnsyncCounter", "the test function's frame", 2,
			`data-race [syncs.TestUnsyncCounter.func1 at syncs_test.go:17] [syncs.TestUnsyncCounter.func1 at syncs_test.go:17]`},
		{"timeout.log", Timeout, "panic: test timed out after 20s", "kernels/locks", "TestABBA", "the test function's frame", 3,
			`timeout [locks.TestABBA at locks_test.go:32] [locks.transfer at locks_test.go:20 < locks.TestABBA.func2] [locks.transfer at locks_test.go:20 < locks.TestABBA.func1]`},
		{"asleep.log", Deadlock, "fatal error: all goroutines are asleep - deadlock!", "kernels/locks", "TestABBA", "the test function's frame", 3, ""},
		{"testfail.log", TestFailure, "counter = 1 after two increments, want 2", "kernels/locks", "TestLostUpdate", "the --- FAIL line", 0,
			`test-failure "counter = 1 after two increments, want 2" (1 may differ, on the same side of 2) at locks_test.go:160`},
		{"json.log", Panic, "panic: close of closed channel", "kernels/chans", "TestCloseClosed", "the test function's frame", 1,
			`panic "close of closed channel" [chans.(*notifier).shutdown at chans_test.go:59 < chans.TestCloseClosed.func2]`},
		{"nilmap.log", Panic, "panic: assignment to entry in nil map", "kernels/syncs", "", "", 1,
			`panic "assignment to entry in nil map" [syncs.(*server).loop at syncs_test.go:70]`},
		{"fatal-v.log", Fatal, "fatal error: sync: unlock of unlocked mutex", "kernels/locks", "TestDoubleUnlock", "the test function's frame", 1,
			`fatal "fatal error: sync: unlock of unlocked mutex" [locks.(*conn).release at locks_test.go:89 < locks.TestDoubleUnlock.func1]`},
	}
	for _, tt := range tests {
		t.Run(tt.log, func(t *testing.T) {
			fs := Parse(read(t, tt.log))
			if len(fs) != 1 {
				for _, f := range fs {
					t.Logf("%+v", *f)
				}
				t.Fatalf("got %d failures, want 1", len(fs))
			}
			f := fs[0]
			if f.Kind != tt.kind || f.Message != tt.message || f.Package != tt.pkg || f.Test != tt.test || f.TestFrom != tt.from {
				t.Errorf("got kind %q message %q package %q test %q (from %q), want %q %q %q %q (%q)",
					f.Kind, f.Message, f.Package, f.Test, f.TestFrom, tt.kind, tt.message, tt.pkg, tt.test, tt.from)
			}
			if len(f.Involved) != tt.involved {
				t.Errorf("got %d goroutines involved, want %d: %+v", len(f.Involved), tt.involved, f.Involved)
			}
			if tt.sig != "" {
				if got := f.Signature(inKernels).String(); got != tt.sig {
					t.Errorf("signature\n got %s\nwant %s", got, tt.sig)
				}
			}
		})
	}
}

func TestTimeoutInvolvesOnlyTheTestsGoroutines(t *testing.T) {
	f := Parse(read(t, "timeout.log"))[0]
	if d := f.TestTimeout(); d != 20*time.Second {
		t.Errorf("TestTimeout() = %v, want the log's 20s", d)
	}
	if d := Parse(read(t, "panic.log"))[0].TestTimeout(); d != 0 {
		t.Errorf("a panic's TestTimeout() = %v, want 0", d)
	}
	if len(f.Goroutines) != 5 {
		t.Fatalf("got %d goroutines in the dump, want 5 (alarm, main, test, two transfers)", len(f.Goroutines))
	}
	for _, g := range f.Involved {
		if g.ID == 1 || g.ID == 1829 {
			t.Errorf("goroutine %d (the testing package's) is involved", g.ID)
		}
	}
	// A goroutine left over from an earlier test, started by another
	// test goroutine, is not the failure's.
	log := read(t, "timeout.log") + ""
	extra := strings.Replace(log, "goroutine 1826 [sync.WaitGroup.Wait]:", `goroutine 77 [chan receive]:
kernels/locks.TestABBA.func1()
	/w/locks/locks_test.go:30 +0x8f
created by kernels/locks.TestABBA in goroutine 70
	/w/locks/locks_test.go:30 +0x1c5

goroutine 1826 [sync.WaitGroup.Wait]:`, 1)
	f = Parse(extra)[0]
	if len(f.Goroutines) != 6 || len(f.Involved) != 3 {
		t.Errorf("with a leftover goroutine: %d in the dump, %d involved; want 6 and 3", len(f.Goroutines), len(f.Involved))
	}
}

func TestCILogDecorations(t *testing.T) {
	// GitHub Actions' downloaded logs prefix each line with a timestamp,
	// and some runners colour them.
	var b strings.Builder
	b.WriteString("2026-11-25T02:23:01.1234567Z + go test -race -count=20000 -run '^TestNilMapInitOrder$' ./syncs\r\n")
	for _, l := range strings.Split(read(t, "nilmap.log"), "\n") {
		b.WriteString("2026-11-25T02:23:02.0000000Z \x1b[31m" + l + "\x1b[0m\r\n")
	}
	fs := Parse(b.String())
	if len(fs) != 1 {
		t.Fatalf("got %d failures, want 1", len(fs))
	}
	f := fs[0]
	if f.Test != "TestNilMapInitOrder" || f.TestFrom != "-run in the log" || f.Package != "kernels/syncs" {
		t.Errorf("got test %q (from %q) in %q, want TestNilMapInitOrder from -run in kernels/syncs", f.Test, f.TestFrom, f.Package)
	}
	if got := f.Signature(inKernels).Targets(); strings.Join(got, ",") != "syncs_test.go:70" {
		t.Errorf("targets %v, want [syncs_test.go:70]", got)
	}
}

func TestNoFailure(t *testing.T) {
	for _, log := range []string{"", "ok  \tkernels/locks\t1.306s\n", "PASS\nok  \tkernels/locks\t0.1s\n--- PASS: TestX (0.00s)\n"} {
		if fs := Parse(log); len(fs) != 0 {
			t.Errorf("Parse(%q) = %d failures, want none", log, len(fs))
		}
	}
}

func TestRecoveredPanicInTheTestGoroutine(t *testing.T) {
	log := `=== RUN   TestBoom
--- FAIL: TestBoom (0.00s)
panic: boom [recovered]
	panic: boom

goroutine 7 [running]:
testing.tRunner.func1.2({0x5d0ee0, 0x6a6f30})
	/usr/local/go/src/testing/testing.go:1734 +0x21c
testing.tRunner.func1()
	/usr/local/go/src/testing/testing.go:1737 +0x35e
panic({0x5d0ee0?, 0x6a6f30?})
	/usr/local/go/src/runtime/panic.go:792 +0x132
example.com/m/pkg.helper(...)
	/src/pkg/pkg_test.go:9
example.com/m/pkg.TestBoom(0xc000104a80?)
	/src/pkg/pkg_test.go:13 +0x25
testing.tRunner(0xc000104a80, 0x6287d8)
	/usr/local/go/src/testing/testing.go:1792 +0xf4
created by testing.(*T).Run in goroutine 1
	/usr/local/go/src/testing/testing.go:1851 +0x413
exit status 2
FAIL	example.com/m/pkg	0.005s
`
	fs := Parse(log)
	if len(fs) != 1 {
		t.Fatalf("got %d failures, want 1", len(fs))
	}
	f := fs[0]
	if f.Kind != Panic || f.Message != "panic: boom" || f.Test != "TestBoom" || f.Package != "example.com/m/pkg" {
		t.Errorf("got %+v", *f)
	}
	want := `panic "boom" [pkg.helper at pkg_test.go:9 < pkg.TestBoom]`
	if got := f.Signature(InModule("example.com/m")).String(); got != want {
		t.Errorf("signature %s, want %s", got, want)
	}
}

func TestRunPatternTest(t *testing.T) {
	for pat, want := range map[string]string{
		"'^TestABBA$'":         "TestABBA",
		`"TestABBA"`:           "TestABBA",
		"^TestABBA$/case_1":    "TestABBA",
		"(^TestABBA$)":         "TestABBA",
		"^(TestA|TestB)$":      "",
		"TestA.*":              "",
		"Testing":              "",
		"'^Test_under_score$'": "Test_under_score",
	} {
		if got := RunPatternTest(pat); got != want {
			t.Errorf("RunPatternTest(%s) = %q, want %q", pat, got, want)
		}
	}
}

func TestMatch(t *testing.T) {
	frame := func(fn, file string, line int) checks.Frame { return checks.Frame{Func: fn, File: file, Line: line} }
	abba := Parse(read(t, "timeout.log"))[0].Signature(inKernels)
	deadlock := checks.Finding{Kind: checks.Deadlock, Message: "TestABBA: deadlock: all goroutines are blocked",
		Goroutines: []checks.Goroutine{
			{ID: "g0", Stack: []checks.Frame{frame("kernels/locks.TestABBA", "locks/locks_test.go", 32), frame("testing.tRunner", "/go/src/testing/testing.go", 2036)}},
			{ID: "g1", Stack: []checks.Frame{frame("kernels/locks.transfer", "locks/locks_test.go", 20), frame("kernels/locks.TestABBA.func1", "locks/locks_test.go", 30)}},
			{ID: "g2", Stack: []checks.Frame{frame("kernels/locks.transfer", "locks/locks_test.go", 20), frame("kernels/locks.TestABBA.func3", "locks/locks_test.go", 31)}},
		}}
	if ok, why := abba.Match(deadlock, inKernels); !ok {
		t.Errorf("the ABBA deadlock does not match the timeout: %s", why)
	}
	// Blocked at the first lock instead: a different deadlock.
	other := deadlock
	other.Goroutines = append([]checks.Goroutine(nil), deadlock.Goroutines...)
	other.Goroutines[2] = checks.Goroutine{ID: "g2", Stack: []checks.Frame{frame("kernels/locks.transfer", "locks/locks_test.go", 18)}}
	if ok, _ := abba.Match(other, inKernels); ok {
		t.Error("a deadlock at another line matches")
	}
	leak := deadlock
	leak.Kind = checks.Leak
	if ok, why := abba.Match(leak, inKernels); ok || !strings.Contains(why, "leak") {
		t.Errorf("a leak matches a timeout (%v, %q)", ok, why)
	}

	closeClosed := Parse(read(t, "panic.log"))[0].Signature(inKernels)
	panicAt := func(msg string, line int) checks.Finding {
		return checks.Finding{Kind: checks.Panic, Message: "TestCloseClosed: " + msg, Goroutines: []checks.Goroutine{
			{ID: "g0", Stack: []checks.Frame{frame("kernels/chans.TestCloseClosed", "chans/chans_test.go", 69)}},
			{ID: "g1", Stack: []checks.Frame{frame("runtime.closechan", "/go/src/runtime/chan.go", 400), frame("kernels/chans.(*notifier).shutdown", "chans/chans_test.go", line), frame("kernels/chans.TestCloseClosed.func1", "chans/chans_test.go", 67)}},
		}}
	}
	if ok, why := closeClosed.Match(panicAt("panic: close of closed channel", 59), inKernels); !ok {
		t.Errorf("the same panic does not match: %s", why)
	}
	if ok, _ := closeClosed.Match(panicAt("panic: close of nil channel", 59), inKernels); ok {
		t.Error("another panic message matches")
	}
	if ok, _ := closeClosed.Match(panicAt("panic: close of closed channel", 58), inKernels); ok {
		t.Error("the panic at another line matches")
	}

	race := Parse(read(t, "race.log"))[0].Signature(inKernels)
	raceFd := checks.Finding{Kind: checks.DataRace, Goroutines: []checks.Goroutine{
		{ID: "runtime goroutine 8", Stack: []checks.Frame{frame("kernels/syncs.TestUnsyncCounter.func1", "syncs/syncs_test.go", 17)}},
		{ID: "runtime goroutine 9", Stack: []checks.Frame{frame("kernels/syncs.TestUnsyncCounter.func1", "syncs/syncs_test.go", 17)}},
	}}
	if ok, why := race.Match(raceFd, inKernels); !ok {
		t.Errorf("the same race does not match: %s", why)
	}
	raceFd.Goroutines = raceFd.Goroutines[:1]
	if ok, _ := race.Match(raceFd, inKernels); ok {
		t.Error("a race with one side matches")
	}

	lost := Parse(read(t, "testfail.log"))[0].Signature(inKernels)
	tf := checks.Finding{Kind: checks.TestFailure, Message: "TestLostUpdate: test failed: locks_test.go:160: counter = 1 after two increments, want 2",
		Pos: checks.Position{File: "locks/locks_test.go", Line: 151}}
	if ok, why := lost.Match(tf, inKernels); !ok {
		t.Errorf("the same test failure does not match: %s", why)
	}
	tf.Message = strings.Replace(tf.Message, ":160:", ":161:", 1)
	if ok, _ := lost.Match(tf, inKernels); ok {
		t.Error("a test failure logged at another line matches")
	}

	// A process that died shows only where it failed.
	unlock := Parse(read(t, "fatal-v.log"))[0].Signature(inKernels)
	died := checks.Finding{Kind: checks.Fatal, Message: "TestDoubleUnlock: fatal error: sync: unlock of unlocked mutex",
		Pos: checks.Position{File: "locks/locks_test.go", Line: 89}}
	if ok, why := unlock.Match(died, inKernels); !ok {
		t.Errorf("the same fatal error does not match: %s", why)
	}
	died.Pos.Line = 88
	if ok, _ := unlock.Match(died, inKernels); ok {
		t.Error("a fatal error at another line matches")
	}
}

// A log of several packages (go test ./...) with a failure in two of them:
// each failure gets its own package and test.
func TestSeveralFailures(t *testing.T) {
	log := "ok  \tkernels/correct\t0.5s\n" + read(t, "race.log") + read(t, "timeout.log") + "ok  \tkernels/chans\t0.2s\n"
	fs := Parse(log)
	if len(fs) != 2 {
		t.Fatalf("got %d failures, want 2", len(fs))
	}
	if fs[0].Kind != DataRace || fs[0].Package != "kernels/syncs" || fs[0].Test != "TestUnsyncCounter" {
		t.Errorf("first: %s %s.%s, want the race of kernels/syncs.TestUnsyncCounter", fs[0].Kind, fs[0].Package, fs[0].Test)
	}
	if fs[1].Kind != Timeout || fs[1].Package != "kernels/locks" || fs[1].Test != "TestABBA" {
		t.Errorf("second: %s %s.%s, want the timeout of kernels/locks.TestABBA", fs[1].Kind, fs[1].Package, fs[1].Test)
	}
}

// A goroutine that fails its test after the test completed: the testing
// package's panic names the test (the stacks, a helper's, do not), or a
// subtest of it; the signature asks for that and the failing goroutine.
func TestParseLate(t *testing.T) {
	inLate := InModule("late")
	log := read(t, "late.log")
	for _, tt := range []struct {
		name, log, subtest string
	}{
		{"top-level", log, ""},
		{"subtest", strings.Replace(log, "after TestPoolJobs has", "after TestPoolJobs/two_jobs#01 has", 1), "TestPoolJobs/two_jobs#01"},
		{"log", strings.Replace(log, "panic: Fail in goroutine after TestPoolJobs has completed", "panic: Log in goroutine after TestPoolJobs/two_jobs has completed: second job refused", 1), "TestPoolJobs/two_jobs"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := Parse(tt.log)
			if len(fs) != 1 {
				t.Fatalf("got %d failures, want 1", len(fs))
			}
			f := fs[0]
			if f.Kind != Panic || f.Package != "late" || f.Test != "TestPoolJobs" || f.Subtest != tt.subtest || f.TestFrom != "the panic message" {
				t.Errorf("got %s in %q test %q subtest %q (from %q), want a panic in late, TestPoolJobs, subtest %q, from the panic message",
					f.Kind, f.Package, f.Test, f.Subtest, f.TestFrom, tt.subtest)
			}
			sig := f.Signature(inLate)
			if want := "panic a goroutine failing TestPoolJobs after it completed [late.submit.func1 at late_test.go:15]"; sig.String() != want {
				t.Errorf("signature\n got %s\nwant %s", sig, want)
			}
			// The instrumented build inlines submit into the test's literal.
			stack := []checks.Goroutine{{ID: "3", Stack: []checks.Frame{{Func: "late.TestPoolJobs.func1.submit.1", File: "/w/late/late_test.go", Line: 15}}}}
			for _, c := range []struct {
				msg string
				ok  bool
			}{
				{"TestPoolJobs: panic: Fail in goroutine after TestPoolJobs has completed", true},
				{"TestPoolJobs: panic: Fail in goroutine after TestPoolJobs/two_jobs has completed", true},
				{"TestPoolJobs: panic: Log in goroutine after TestPoolJobs has completed: second job refused", true},
				{"TestPoolJobs: panic: Fail in goroutine after TestOther has completed", false},
				{"TestPoolJobs: test failed: late_test.go:15: second job refused: the pool was closed", false},
			} {
				kind := checks.Panic
				if strings.Contains(c.msg, "test failed") {
					kind = checks.TestFailure
				}
				if ok, why := sig.Match(checks.Finding{Kind: kind, Message: c.msg, Goroutines: stack}, inLate); ok != c.ok {
					t.Errorf("Match(%q) = %v (%s), want %v", c.msg, ok, why, c.ok)
				}
			}
		})
	}
}

func TestFuncKey(t *testing.T) {
	for _, tt := range []struct{ a, b string }{
		{"late.submit.func1", "late.TestPoolJobs.func1.submit.1"},
		{"example.com/m/p.(*T).m.func2", "example.com/m/p.TestX.(*T).m.1"},
		{"p.TestX.func1", "p.TestX.func3"},
		{"p.TestX.gowrap1", "p.TestX.func2"},
	} {
		if funcKey(tt.a) != funcKey(tt.b) {
			t.Errorf("funcKey(%q) = %q, funcKey(%q) = %q; want them equal", tt.a, funcKey(tt.a), tt.b, funcKey(tt.b))
		}
	}
	for _, fn := range []string{"p.(*T).m", "p.TestX", "main.main"} {
		if funcKey(fn) != fn {
			t.Errorf("funcKey(%q) = %q, want it unchanged", fn, funcKey(fn))
		}
	}
	if funcKey("p.(*T).m.func1") == funcKey("p.(*U).m.func1") {
		t.Errorf("literals of two methods m share a key")
	}
}

// The logs in testdata/real are excerpts of logs pasted in public issues
// (bench/repro/logs has them whole, with where they come from):
//
//	old-go-asleep.log         github.com/thejerf/suture issue 66 (Go before 1.21:
//	                          "created by pkg.TestX" without "in goroutine N")
//	testify-no-fail-line.log  github.com/dgraph-io/ristretto pull request 334
//	                          (a testify block pasted without its --- FAIL line)
//	late-through-dep.log      github.com/qmsk/snmpbot issue 30 (a late Log through a
//	                          dependency's logger; no FAIL line)
//	actions-error-prefix.log  github.com/elastic/cloud-sdk-go issue 36 (GitHub Actions'
//	                          "##[error]" before each message of a subtest)
//	gotestsum.log             github.com/buildkite/agent pull request 2311 (gotestsum's
//	                          "=== FAIL: pkg TestX" header; a helper process's
//	                          deadlock under TestMain; "_testmain." line finished)
//	verbose-message-first.log github.com/hashicorp/golang-lru issue 236 (go test -v:
//	                          the message before the --- FAIL line)
//	github-line-links.log     github.com/fnrun/fnrun issue 136, cut after the
//	                          main goroutine (line numbers copied from GitHub's
//	                          web view carry links: "testing.go:[178](https://…)8")

func TestOldGoCreatedByIsTheTests(t *testing.T) {
	fs := Parse(read(t, "real/old-go-asleep.log"))
	if len(fs) != 1 {
		t.Fatalf("got %d failures, want 1", len(fs))
	}
	f := fs[0]
	if f.Kind != Deadlock || f.Test != "TestFailingSupervisors" || f.Package != "github.com/thejerf/suture/v4" {
		t.Fatalf("got %s of %s.%s", f.Kind, f.Package, f.Test)
	}
	// The supervisor goroutine the test started is blocked too: it is
	// part of the deadlock although its "created by" names no goroutine.
	want := `deadlock [v4.TestFailingSupervisors at suture_test.go:571] [v4.(*Supervisor).Serve at supervisor.go:355]`
	if got := f.Signature(InModule("github.com/thejerf/suture/v4")).String(); got != want {
		t.Errorf("signature\n got %s\nwant %s", got, want)
	}
}

func TestTestifyBlock(t *testing.T) {
	const want = `test-failure with "Should be true" at cache_test.go:866`
	inRistretto := InModule("github.com/dgraph-io/ristretto")
	for name, log := range map[string]string{
		"pasted alone": read(t, "real/testify-no-fail-line.log"),
		// As go test prints it: the --- FAIL line, the site with a
		// trailing space, tabs; the package on the FAIL line.
		"go test": "--- FAIL: TestDropUpdates (0.01s)\n    cache_test.go:866: \n        \tError Trace:\tcache_test.go:866\n        \t            \t\t\t\tcache_test.go:872\n        \tError:      \tShould be true\n        \tTest:       \tTestDropUpdates\nFAIL\nFAIL\tgithub.com/dgraph-io/ristretto\t2.1s\n",
		// As go test -v prints it: the block before the --- FAIL line
		// (one failure, not the block's and the --- FAIL line's).
		"go test -v": "=== RUN   TestDropUpdates\n    cache_test.go:866: \n        \tError Trace:\tcache_test.go:866\n        \t            \t\t\t\tcache_test.go:872\n        \tError:      \tShould be true\n        \tTest:       \tTestDropUpdates\n--- FAIL: TestDropUpdates (0.01s)\nFAIL\n",
		// The same, of a subtest whose --- FAIL line the paste left out:
		// its parent's --- FAIL line is the same failure.
		"go test -v, a subtest": "=== RUN   TestDropUpdates\n=== RUN   TestDropUpdates/one\n    cache_test.go:866: \n        \tError Trace:\tcache_test.go:866\n        \tError:      \tShould be true\n        \tTest:       \tTestDropUpdates/one\n--- FAIL: TestDropUpdates (0.01s)\n",
	} {
		fs := Parse(log)
		if len(fs) != 1 {
			t.Fatalf("%s: got %d failures, want 1", name, len(fs))
		}
		f := fs[0]
		if f.Kind != TestFailure || f.Test != "TestDropUpdates" || f.Site != "cache_test.go:866" {
			t.Errorf("%s: got %s of %s at %s", name, f.Kind, f.Test, f.Site)
		}
		if got := f.Signature(inRistretto).String(); got != want {
			t.Errorf("%s: signature\n got %s\nwant %s", name, got, want)
		}
	}
	sig := Parse(read(t, "real/testify-no-fail-line.log"))[0].Signature(inRistretto)
	fd := checks.Finding{Kind: checks.TestFailure, Message: "cache_test.go:866: \n\tError Trace:\tcache_test.go:866\n\t\t\t\tcache_test.go:872\n\tError:      \tShould be true\n\tTest:       \tTestDropUpdates"}
	if ok, why := sig.Match(fd, inRistretto); !ok {
		t.Errorf("the same assertion does not match: %s", why)
	}
	fd.Message = strings.Replace(fd.Message, "Should be true", "Should be false", 1)
	if ok, _ := sig.Match(fd, inRistretto); ok {
		t.Errorf("another assertion at the same line matches")
	}
	// A subtest named by the Test: line.
	f := Parse("    x_test.go:12: \n        \tError Trace:\tx_test.go:12\n        \tError:      \tNot equal: \n        \tTest:       \tTestUpdate/happy_path\n")[0]
	if f.Test != "TestUpdate" || f.Subtest != "TestUpdate/happy_path" {
		t.Errorf("got test %q subtest %q, want TestUpdate and TestUpdate/happy_path", f.Test, f.Subtest)
	}
}

func TestGitHubLineLinks(t *testing.T) {
	fs := Parse(read(t, "real/github-line-links.log"))
	if len(fs) != 1 {
		t.Fatalf("got %d failures, want 1", len(fs))
	}
	f := fs[0]
	if f.Kind != Timeout || f.Test != "TestNew_withTimeout" || len(f.Goroutines) != 2 {
		t.Fatalf("got %s of %q, %d goroutines; want the timeout of TestNew_withTimeout, 2 goroutines", f.Kind, f.Test, len(f.Goroutines))
	}
	if fr := f.Goroutines[0].Frames[0]; fr.Line != 1788 {
		t.Errorf("alarm frame at line %d, want 1788 (the link's text joined to the digit after it)", fr.Line)
	}
	if fr := f.Goroutines[0].CreatedBy[0]; fr.Line != 180 {
		t.Errorf("created at line %d, want 180", fr.Line)
	}
}

func TestVerboseMessageBeforeFailLine(t *testing.T) {
	fs := Parse(read(t, "real/verbose-message-first.log"))
	if len(fs) != 1 {
		t.Fatalf("got %d failures, want 1", len(fs))
	}
	f := fs[0]
	if f.Kind != TestFailure || f.Test != "TestLoadingExpired" || f.Site != "expirable_lru_test.go:405" || f.Message != "length differs from expected" {
		t.Errorf("got %s of %s at %s: %q", f.Kind, f.Test, f.Site, f.Message)
	}
	// Another test's message is never taken for it.
	log := "=== RUN   TestA\n    a_test.go:3: from A\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n--- FAIL: TestB (0.00s)\n"
	if fs := Parse(log); len(fs) != 0 {
		t.Errorf("got %d failures from a --- FAIL line without a message of its test, want none: %+v", len(fs), *fs[0])
	}
}

func TestPackageFromFramesSkipsDependencies(t *testing.T) {
	fs := Parse(read(t, "real/late-through-dep.log"))
	if len(fs) != 1 {
		t.Fatalf("got %d failures, want 1", len(fs))
	}
	f := fs[0]
	// The top frames are the logging module's, from the module cache.
	if f.Test != "TestWalkBulk" || f.Package != "github.com/qmsk/snmpbot/client" {
		t.Errorf("got test %q of package %q, want TestWalkBulk of github.com/qmsk/snmpbot/client", f.Test, f.Package)
	}
}

// A log from another commit than the checkout: the same deadlock one line
// higher matches only with Drift; one eight lines away never does.
func TestSignatureDrift(t *testing.T) {
	frame := func(fn, file string, line int) checks.Frame { return checks.Frame{Func: fn, File: file, Line: line} }
	in := InModule("github.com/thejerf/suture/v4")
	sig := Parse(read(t, "real/old-go-asleep.log"))[0].Signature(in)
	deadlock := func(testLine, serveLine int) checks.Finding {
		return checks.Finding{Kind: checks.Deadlock, Goroutines: []checks.Goroutine{
			{ID: "g0", Stack: []checks.Frame{frame("github.com/thejerf/suture/v4.TestFailingSupervisors", "v4/suture_test.go", testLine), frame("testing.tRunner", "/go/src/testing/testing.go", 1446)}},
			{ID: "g1", Stack: []checks.Frame{frame("github.com/thejerf/suture/v4.(*Supervisor).Serve", "v4/supervisor.go", serveLine), frame("github.com/thejerf/suture/v4.TestFailingSupervisors.func1", "v4/suture_test.go", 533)}},
		}}
	}
	if ok, why := sig.Match(deadlock(571, 355), in); !ok {
		t.Errorf("the log's own lines do not match: %s", why)
	}
	if ok, _ := sig.Match(deadlock(570, 354), in); ok {
		t.Error("lines one away match without Drift")
	}
	sig.Drift = 1
	if ok, why := sig.Match(deadlock(570, 354), in); !ok {
		t.Errorf("lines one away do not match with Drift 1: %s", why)
	}
	sig.Drift = 3
	if ok, _ := sig.Match(deadlock(579, 354), in); ok {
		t.Error("the test blocked 8 lines away matches with Drift 3")
	}
}

func TestActionsCommandPrefixAndSubtest(t *testing.T) {
	fs := Parse(read(t, "real/actions-error-prefix.log"))
	if len(fs) != 1 {
		t.Fatalf("got %d failures, want 1", len(fs))
	}
	f := fs[0]
	if f.Kind != TestFailure || f.Test != "TestPoolAdd" || f.Subtest != "TestPoolAdd/Add_succeeds" || f.Site != "pool_test.go:288" {
		t.Errorf("got %s of %q (subtest %q) at %s", f.Kind, f.Test, f.Subtest, f.Site)
	}
}

func TestGotestsumAndTestMain(t *testing.T) {
	fs := Parse(read(t, "real/gotestsum.log"))
	if len(fs) != 2 {
		t.Fatalf("got %d failures, want 2 (the test's message, the deadlock)", len(fs))
	}
	f := fs[0]
	if f.Kind != TestFailure || f.Test != "TestLockFileRetriesAndTimesOut" || f.Site != "shell_test.go:319" || f.TestFrom != "gotestsum's === FAIL line" {
		t.Errorf("got %s of %q at %s (from %q)", f.Kind, f.Test, f.Site, f.TestFrom)
	}
	// The deadlock is a helper process's under TestMain: TestMain is not
	// a test, and no test is taken from its frame.
	if d := fs[1]; d.Kind != Deadlock || d.Test == "TestMain" {
		t.Errorf("got %s of %q, want a deadlock not of TestMain", d.Kind, d.Test)
	}
}

// A failure on a repeated run of its test in one process (go test
// -count=2, testdata/twice: the second run meets the pool the first
// released): the run's number from the runs that passed before it, else
// the -count flag's (at most MaxRuns); none without either.
func TestRepeatedRuns(t *testing.T) {
	stress := "$ go test -count=100 -race ./...\n" + read(t, "testfail.log")
	for _, tt := range []struct {
		name, log string
		runs      int
		from      string
	}{
		{"-v", read(t, "twice-v.log"), 2, "1 earlier run of TestDefaultPool in the log passed"},
		{"-count flag", read(t, "twice.log"), 2, "-count=2 in the log"},
		{"stress", stress, MaxRuns, "-count=100 in the log"},
		{"once", read(t, "testfail.log"), 0, ""},
	} {
		fs := Parse(tt.log)
		if len(fs) != 1 {
			t.Fatalf("%s: got %d failures, want 1", tt.name, len(fs))
		}
		if f := fs[0]; f.Runs != tt.runs || f.RunsFrom != tt.from {
			t.Errorf("%s: runs %d (%q), want %d (%q)", tt.name, f.Runs, f.RunsFrom, tt.runs, tt.from)
		}
	}
}

// TestTestifyValues: an assertion's expected and actual values are part of
// the signature, read from either of testify's formats (old: "1 (expected)
// != 0 (actual)"; new: "expected: 1" and "actual  : 0" lines), and a
// finding matches only with the same values, in either format.
// testify-old-values.log is github.com/uber-go/tally issue 113 (testify
// before v1.2; bench/repro/logs/tally-flushonce.log).
func TestTestifyValues(t *testing.T) {
	const want = `test-failure with "Not equal:" expected 1, actual 0 at scope_test.go:351`
	inTally := InModule("github.com/uber-go/tally")
	for name, log := range map[string]string{
		"old testify": read(t, "real/testify-old-values.log"),
		"new testify": "--- FAIL: TestCachedReporterFlushOnce (0.01s)\n    scope_test.go:351: \n        \tError Trace:\tscope_test.go:351\n        \t            \t\t\t\tscope_test.go:359\n        \tError:      \tNot equal: \n        \t            \texpected: 1\n        \t            \tactual  : 0\n        \tTest:       \tTestCachedReporterFlushOnce\nFAIL\nFAIL\tgithub.com/uber-go/tally\t0.134s\n",
	} {
		fs := Parse(log)
		if len(fs) != 1 {
			t.Fatalf("%s: got %d failures, want 1", name, len(fs))
		}
		sig := fs[0].Signature(inTally)
		if got := sig.String(); got != want {
			t.Errorf("%s: signature\n got %s\nwant %s", name, got, want)
		}
		for msg, same := range map[string]bool{
			// explore's message of the assertion, as testify prints it
			// now and before v1.2.
			"test failed: scope_test.go:351: Not equal: expected: 1 actual : 0":             true,
			"test failed: scope_test.go:351: Not equal: 1 (expected) != 0 (actual)":         true,
			"test failed: scope_test.go:351: Not equal: expected: 1 actual : 0: flushes":    true,
			"test failed: scope_test.go:351: Not equal: expected: 1 actual : 2":             false,
			"test failed: scope_test.go:351: Not equal: 1 (expected) != 2 (actual)":         false,
			"test failed: scope_test.go:351: Not equal: expected: 1 actual : 01":            false,
			"test failed: scope_test.go:351: Not equal:":                                    false,
			"test failed: scope_test.go:351: Not equal: expected: 10 actual : 0":            false,
			"test failed: scope_test.go:352: Not equal: expected: 1 actual : 0":             false,
			"test failed: scope_test.go:351: Should be true":                                false,
			"test failed: scope_test.go:351: Not equal: expected: int(1) actual : int64(0)": false,
		} {
			fd := checks.Finding{Kind: checks.TestFailure, Message: msg}
			if ok, why := sig.Match(fd, inTally); ok != same {
				t.Errorf("%s: %q matches %v (%s), want %v", name, msg, ok, why, same)
			}
		}
	}
	// Other assertions keep their words only.
	if _, _, _, ok := AssertionValues("Should be true"); ok {
		t.Errorf("values read from an assertion without any")
	}
	// Addresses in values are normalized, numbers kept.
	if _, e, a, ok := AssertionValues("Not equal: \nexpected: &T{p:(*int)(0xc000012345)}\nactual  : &T{p:(*int)(nil)}\n\nDiff:\n--- Expected"); !ok || e != "&T{p:(*int)(0x?)}" || a != "&T{p:(*int)(nil)}" {
		t.Errorf("got %q, %q, %v", e, a, ok)
	}
}

// TestMessageNumbers: a test's message is the same failure with another
// count measured on the same side of what it expected, never with
// another expected value, another index, or a count on the other side.
func TestMessageNumbers(t *testing.T) {
	inM := InModule("example.com/m")
	sigOf := func(msg string) Signature {
		t.Helper()
		fs := Parse("--- FAIL: TestCount (0.01s)\n    count_test.go:42: " + msg + "\nFAIL\nFAIL\texample.com/m\t0.104s\n")
		if len(fs) != 1 {
			t.Fatalf("%q: got %d failures, want 1", msg, len(fs))
		}
		return fs[0].Signature(inM)
	}
	if got, want := sigOf("count = 29999, want 30001").String(), `test-failure "count = 29999, want 30001" (29999 may differ, on the same side of 30001) at count_test.go:42`; got != want {
		t.Errorf("signature\n got %s\nwant %s", got, want)
	}
	for log, cases := range map[string]map[string]bool{
		"count = 29999, want 30001": {
			"count = 29999, want 30001": true,
			"count = 29998, want 30001": true, // another lost update
			"count = 0, want 30001":     true,
			"count = 30002, want 30001": false, // too many, not too few
			"count = 30001, want 30001": false,
			"count = 29999, want 30000": false, // another expectation
			"count = #, want #":         false,
		},
		"case 3: got 5, want 6": {
			"case 3: got 4, want 6": true,
			"case 4: got 5, want 6": false, // another row of the table
			"case 3: got 7, want 6": false,
		},
		"expected 10 items, got 7": {
			"expected 10 items, got 3":  true,
			"expected 10 items, got 12": false,
			"expected 9 items, got 7":   false,
		},
		"len(q) = 2, want 0": {
			"len(q) = 5, want 0": true,
			"len(q) = 2, want 1": false,
		},
		"i=3: x = 1, want 2": {
			"i=3: x = 0, want 2": true,
			"i=4: x = 1, want 2": false, // "i=3" labels the case
		},
		"balance = -5, want 0": {
			"balance = -1, want 0": true,
			"balance = 1, want 0":  false,
		},
		"leaked 3 goroutines": {
			"leaked 3 goroutines": true,
			"leaked 4 goroutines": false, // no word says it was measured
		},
		"got 3": {
			"got 300": true, // measured, and nothing to stay below
		},
	} {
		sig := sigOf(log)
		for msg, same := range cases {
			fd := checks.Finding{Kind: checks.TestFailure, Message: "TestCount: test failed: count_test.go:42: " + msg}
			if ok, why := sig.Match(fd, inM); ok != same {
				t.Errorf("log %q: %q matches %v (%s), want %v", log, msg, ok, why, same)
			}
		}
		// The same text logged at another line is another assertion.
		fd := checks.Finding{Kind: checks.TestFailure, Message: "TestCount: test failed: count_test.go:43: " + log}
		if ok, _ := sig.Match(fd, inM); ok {
			t.Errorf("log %q: matches at another line", log)
		}
	}
	// testify's numeric values: the actual one measured, the expected one
	// fixed.
	inTally := InModule("github.com/uber-go/tally")
	fs := Parse("--- FAIL: TestCount (0.01s)\n    count_test.go:42: \n        \tError Trace:\tcount_test.go:42\n        \tError:      \tNot equal: \n        \t            \texpected: 30001\n        \t            \tactual  : 29999\n        \tTest:       \tTestCount\nFAIL\n")
	sig := fs[0].Signature(inTally)
	for msg, same := range map[string]bool{
		"test failed: count_test.go:42: Not equal: expected: 30001 actual : 29998":   true,
		"test failed: count_test.go:42: Not equal: 30001 (expected) != 290 (actual)": true,
		"test failed: count_test.go:42: Not equal: expected: 30001 actual : 30002":   false,
		"test failed: count_test.go:42: Not equal: expected: 30000 actual : 29999":   false,
		"test failed: count_test.go:42: Not equal: 130001 (expected) != 0 (actual)":  false,
		"test failed: count_test.go:42: Not equal: expected: 30001 actual : 29998x":  false,
	} {
		fd := checks.Finding{Kind: checks.TestFailure, Message: msg}
		if ok, why := sig.Match(fd, inTally); ok != same {
			t.Errorf("testify: %q matches %v (%s), want %v", msg, ok, why, same)
		}
	}
}

// TestTimeoutLiveGoroutines: a timeout's dump cut to goroutines that
// waited less than a minute while the test had waited minutes (a pool's
// janitors woken by their tickers: panjf2000/ants issue 401) shows none
// of the hang; the signature keeps none of them, and any hang of the test
// is the log's. The same goroutines waiting for minutes are the hang's.
func TestTimeoutLiveGoroutines(t *testing.T) {
	inAnts := InModule("github.com/panjf2000/ants/v2")
	log := read(t, "real/timeout-live-only.log")
	f := Parse(log)[0]
	if f.Kind != Timeout || f.Test != "TestAntsPool" || len(f.Involved) != 0 || len(f.Live) != 2 {
		t.Fatalf("got %s of %s, %d involved, %d live; want a timeout of TestAntsPool, 0 and 2", f.Kind, f.Test, len(f.Involved), len(f.Live))
	}
	sig := f.Signature(inAnts)
	if got := sig.String(); got != "timeout (any hang of the test)" {
		t.Errorf("signature %q", got)
	}
	frame := func(fn, file string, line int) checks.Frame { return checks.Frame{Func: fn, File: file, Line: line} }
	hang := checks.Finding{Kind: checks.Deadlock, Message: "TestAntsPool: deadlock: all goroutines are blocked",
		Goroutines: []checks.Goroutine{{ID: "g0", Stack: []checks.Frame{frame("sync.(*WaitGroup).Wait", "/go/src/sync/waitgroup.go", 118), frame("github.com/panjf2000/ants/v2_test.TestAntsPool", "ants_test.go", 294)}}}}
	if ok, why := sig.Match(hang, inAnts); !ok {
		t.Errorf("the test's hang does not match a dump of live goroutines only: %s", why)
	}
	leak := hang
	leak.Kind = checks.Leak
	if ok, _ := sig.Match(leak, inAnts); ok {
		t.Error("a leak matches a timeout")
	}
	// The janitors blocked for minutes: they are the hang.
	blocked := strings.ReplaceAll(log, "[select]:", "[select, 7 minutes]:")
	f = Parse(blocked)[0]
	if len(f.Involved) != 2 || len(f.Live) != 0 {
		t.Fatalf("janitors waiting 7 minutes: %d involved, %d live; want 2 and 0", len(f.Involved), len(f.Live))
	}
	if ok, _ := f.Signature(inAnts).Match(hang, inAnts); ok {
		t.Error("a hang without the log's blocked goroutines matches")
	}
	// A dump where nothing waited minutes says nothing of who is live.
	short := strings.ReplaceAll(log, "chan receive, 7 minutes", "chan receive")
	if f = Parse(short)[0]; len(f.Involved) != 2 {
		t.Errorf("a dump without waits of minutes: %d involved, want 2", len(f.Involved))
	}
}

// A testify assertion the log shows two lines below the checkout's (a log
// from a nearby commit): it matches with Drift 2, by the subtest the log
// names, as the first message the test logged; never with less, nor from
// another subtest, another file or farther.
func TestSignatureSiteDrift(t *testing.T) {
	log := "=== RUN   TestUpdate\n=== RUN   TestUpdate/happy_path\n    sched_test.go:1606: \n        \tError Trace:\tsched_test.go:1606\n        \tError:      \tNot equal: \n        \t            \texpected: 4\n        \t            \tactual  : 3\n        \tTest:       \tTestUpdate/happy_path\n--- FAIL: TestUpdate (2.75s)\n"
	fs := Parse(log)
	if len(fs) != 1 {
		t.Fatalf("got %d failures, want 1", len(fs))
	}
	in := InModule("example.com/sched")
	sig := fs[0].Signature(in)
	fd := func(test, site string) checks.Finding {
		// As explore tells it (gocron's TestScheduler_Update).
		return checks.Finding{Kind: checks.TestFailure, Test: test, Message: test + ": test failed: " + site + ": Not equal: expected: 4 actual : 3"}
	}
	for _, c := range []struct {
		drift      int
		test, site string
		want       bool
	}{
		{0, "TestUpdate/happy_path", "sched_test.go:1606", true},
		{0, "TestUpdate/happy_path", "sched_test.go:1604", false},
		{1, "TestUpdate/happy_path", "sched_test.go:1604", false},
		{2, "TestUpdate/happy_path", "sched_test.go:1604", true},
		{2, "TestUpdate/happy_path", "sched_test.go:1608", true},
		{2, "TestUpdate/happy_path", "sched_test.go:1603", false},
		{2, "TestUpdate/other", "sched_test.go:1604", false},
		{2, "TestUpdate/happy_path", "other_test.go:1604", false},
	} {
		sig.Drift = c.drift
		if ok, why := sig.Match(fd(c.test, c.site), in); ok != c.want {
			t.Errorf("drift %d, %s at %s: match %v (%s), want %v", c.drift, c.test, c.site, ok, why, c.want)
		}
	}
	// A message logged first at another line: the assertion is not the
	// one that failed the test first.
	sig.Drift = 2
	other := fd("TestUpdate/happy_path", "sched_test.go:1604")
	other.Message = "TestUpdate/happy_path: test failed: sched_test.go:1500: setting up\n" + strings.TrimPrefix(other.Message, "TestUpdate/happy_path: test failed: ")
	if ok, _ := sig.Match(other, in); ok {
		t.Error("matched within Drift by a message that is not the test's first")
	}
}
