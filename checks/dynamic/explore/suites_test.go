package explore

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// suitesDir is the nested module of testify suites (a stand-in for
// testify's suite package, replaced in its go.mod).
const suitesDir = "../testdata/suites"

// TestSuiteMethods: testify's suite.Run runs each method through t.Run
// from testify's own code; the method's body runs under control as a
// subtest's (rewrite's RunRunner), so a deadlock and a lost update
// between a method and the goroutine it starts are found, named after
// the method, and replayed, while the correct method stays silent.
// Without it the methods ran outside control and neither was found.
func TestSuiteMethods(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, suitesDir, []string{"./methods"}, 30)
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{
			"TestTransferSuite": checks.Deadlock,
			"TestCountSuite":    checks.TestFailure,
			"TestCalmSuite":     "",
		},
		Msgs: map[string][]string{
			"TestTransferSuite": {"TestTransferSuite/TestTransfer: deadlock"},
			"TestCountSuite":    {"TestCountSuite/TestCount: ", "count = 1, want 2"},
		},
	}
	checkFindings(context.Background(), t, res, c)
}

// TestFailedTestLeftovers: a test whose assertion fails under some
// interleavings and, failing, skips the Close that stops its pool's
// workers is reported as the test failure (its message and site), with the
// workers it left inside that finding, once, and the schedule replays; the
// correct mirror stays silent. It was reported as a goroutine leak.
func TestFailedTestLeftovers(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, suitesDir, []string{"./failleft"}, 30)
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{
			"TestPoolCounts":     checks.TestFailure,
			"TestPoolCountsCalm": "",
		},
		Msgs: map[string][]string{
			"TestPoolCounts": {"hits = 1, want 2", "(what it left behind: goroutines still blocked after the test returned: ", "failleft_test.go:23"},
		},
	}
	checkFindings(context.Background(), t, res, c)
	for _, f := range res.Findings {
		if f.Test == "TestPoolCounts" && len(f.Goroutines) == 0 {
			t.Errorf("%s: no goroutines in the finding, want the workers it left", f.Message)
		}
	}
}

// TestRunSelectsSuiteMethods: -run 'TestMixSuite/TestLost|TestTable/calm'
// runs what go test would: TestLost's lost update is found, named after
// the method and replayed (its schedule carries the pattern), the
// deadlocks of the method and the subtest it leaves out are not run, and
// plain go test is run and told with the same selection. Without the
// split, no test's name matched the pattern.
func TestRunSelectsSuiteMethods(t *testing.T) {
	t.Parallel()
	const run = "TestMixSuite/TestLost|TestTable/calm"
	c := countedBuild(t, suitesDir, []string{"./selected"}, false)
	res, err := Run(context.Background(), Options{
		Dir: c.dir, Patterns: []string{"./selected"}, Run: run, Budget: 5 * time.Minute, Build: c.build,
		Seed: 1, Workers: 1, Schedules: 30, SchedulesDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{
			"TestMixSuite": checks.TestFailure,
			"TestTable":    "",
		},
		Msgs: map[string][]string{
			"TestMixSuite": {"TestMixSuite/TestLost: ", "count = 1, want 2"},
		},
	}
	checkFindings(context.Background(), t, res, c)
	for _, f := range res.Findings {
		sched, err := ReadSchedule(f.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		if sched.Run != run || sched.Version != rt.ScheduleVersionRun {
			t.Errorf("schedule of %s: run %q, version %d; want %q, %d", f.Test, sched.Run, sched.Version, run, rt.ScheduleVersionRun)
		}
		if f.PlainGo == nil || f.PlainGo.Runs == 0 || !strings.Contains(f.PlainGo.Command, `-run '^TestMixSuite$/TestLost'`) {
			t.Errorf("plain go test of %s: %+v; want runs of -run '^TestMixSuite$/TestLost'", f.Test, f.PlainGo)
		}
	}
}

// TestSkipLeavesOutSuiteMethods: -skip with elements for subtests leaves
// out suite methods and subtests as go test's -skip does (TestABBA's and
// abba's deadlocks are not searched), the schedule carries it and its
// finding replays, and plain go test runs with it.
func TestSkipLeavesOutSuiteMethods(t *testing.T) {
	t.Parallel()
	const skip = "TestMixSuite/TestABBA|TestTable/abba"
	c := countedBuild(t, suitesDir, []string{"./selected"}, false)
	res, err := Run(context.Background(), Options{
		Dir: c.dir, Patterns: []string{"./selected"}, Skip: skip, Budget: 5 * time.Minute, Build: c.build,
		Seed: 1, Workers: 1, Schedules: 30, SchedulesDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{
			"TestMixSuite": checks.TestFailure,
			"TestTable":    "",
		},
		Msgs: map[string][]string{
			"TestMixSuite": {"TestMixSuite/TestLost: ", "count = 1, want 2"},
		},
	}
	checkFindings(context.Background(), t, res, c)
	for _, f := range res.Findings {
		sched, err := ReadSchedule(f.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		if sched.Skip != skip || sched.Version != rt.ScheduleVersionSkip {
			t.Errorf("schedule of %s: skip %q, version %d; want %q, %d", f.Test, sched.Skip, sched.Version, skip, rt.ScheduleVersionSkip)
		}
		if f.PlainGo == nil || f.PlainGo.Runs == 0 || !strings.Contains(f.PlainGo.Command, `-run '^TestMixSuite$' -skip '`+skip+`'`) {
			t.Errorf("plain go test of %s: %+v; want runs of -run '^TestMixSuite$' -skip '%s'", f.Test, f.PlainGo, skip)
		}
	}
}

// TestParallelSubtestFailedFirst: of two parallel subtests that fail on
// one schedule, the finding names the one whose t failed first (early,
// started second), whose assertion its message quotes, and replays. It
// named late, the first started of those that failed, with early's words.
func TestParallelSubtestFailedFirst(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, suitesDir, []string{"./parallelsubs"}, 30)
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestParallel": checks.TestFailure},
		Msgs:  map[string][]string{"TestParallel": {"TestParallel/early: ", "early: n = 1, want 2"}},
	}
	checkFindings(context.Background(), t, res, c)
}
