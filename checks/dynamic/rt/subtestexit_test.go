package rt

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The three ways a subtest's test goroutine can end early, each a test of
// TestMainChild: it calls FailNow of its parent (a closure capturing the
// parent's t), runtime.Goexit, or FailNow of its own t.

// parentFailNow: the subtest calls t.Fatalf of its parent. go test marks
// the parent failed and finished, fails the subtest ("subtest may have
// called FailNow on a parent test") and ends the parent's t.Run with
// runtime.Goexit: the parent's next line never runs.
func parentFailNow(t *testing.T) {
	Run(t, "child", func(*testing.T) {
		Go(func() {})
		t.Fatalf("the parent's Fatalf, called from its subtest")
	})
	t.Errorf("the parent went on after its t.Run")
}

// grandparentFailNow: a nested subtest calls t.Fatalf of the test two
// levels up; go test ends both t.Runs with runtime.Goexit.
func grandparentFailNow(t *testing.T) {
	Run(t, "child", func(ct *testing.T) {
		Run(ct, "grandchild", func(*testing.T) {
			t.Fatalf("the grandparent's Fatalf, called from its nested subtest")
		})
		ct.Errorf("the child went on after its t.Run")
	})
	t.Errorf("the parent went on after its t.Run")
}

// subtestGoexit: the subtest calls runtime.Goexit itself; go test panics,
// "test executed panic(nil) or runtime.Goexit".
func subtestGoexit(t *testing.T) {
	Run(t, "child", func(*testing.T) { runtime.Goexit() })
}

// ownFailNow: the subtest calls its own t.Fatalf; go test fails it, its
// t.Run returns false and the parent goes on.
func ownFailNow(t *testing.T) {
	ok := Run(t, "child", func(t *testing.T) { t.Fatalf("the subtest's own Fatalf") })
	t.Logf("the parent went on, t.Run returned %v", ok)
}

// parallelParentFailNow: a parallel subtest calls t.FailNow of its parent,
// which has finished; go test panics, "test executed panic(nil) or
// runtime.Goexit" (exit 2), as for runtime.Goexit.
func parallelParentFailNow(t *testing.T) {
	Run(t, "child", func(ct *testing.T) {
		Parallel(ct)
		Go(func() {})
		t.FailNow()
	})
}

// parallelOwnFailNow: a parallel subtest calls its own t.FailNow; go test
// fails it, no panic.
func parallelOwnFailNow(t *testing.T) {
	Run(t, "child", func(ct *testing.T) {
		Parallel(ct)
		Go(func() {})
		ct.FailNow()
	})
}

// TestParallelSubtestParentFailNow: a parallel subtest's FailNow of its
// parent is go test's panic under control too (it was a test failure,
// "subtest may have called FailNow on a parent test", so plain go test's
// exit 2 made it "fails another way" and it went unreported), on every
// schedule, and replays; its own FailNow stays a test failure.
func TestParallelSubtestParentFailNow(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	const want = "test executed panic(nil) or runtime.Goexit"
	rs, out, _ := runMain(t, Config{Test: "TestParallelParentFailNow", Seed: 1, Schedules: 2, StepTimeout: 5 * time.Second})
	if len(rs) != 2 {
		t.Fatalf("want 2 schedules, got %+v\n%s", rs, out)
	}
	for _, r := range rs {
		if r.Outcome != "panic" || !strings.Contains(r.Message, want) {
			t.Fatalf("want go test's panic %q, got %+v\n%s", want, r, out)
		}
	}
	sch := &Schedule{Version: ScheduleVersion, Test: "TestParallelParentFailNow", Seed: rs[1].Seed, Decisions: rs[1].Decisions}
	rr, out, _ := runMain(t, Config{Test: "TestParallelParentFailNow", Replay: sch, StepTimeout: 5 * time.Second})
	if len(rr) != 1 || rr[0].Outcome != "panic" || rr[0].Diverged != "" {
		t.Fatalf("replay: %+v\n%s", rr, out)
	}
	rs, out, _ = runMain(t, Config{Test: "TestParallelOwnFailNow", Seed: 1, Schedules: 1, StepTimeout: 5 * time.Second})
	if len(rs) != 1 || rs[0].Outcome != "test-failure" {
		t.Fatalf("own FailNow: want a test failure, got %+v\n%s", rs, out)
	}
}

// TestSubtestParentFailNow: a subtest that calls FailNow of its parent
// fails the test as go test fails it, on every schedule, and replays; it is
// no hang of the parent's t.Run (IL9006 on gomemcache's
// TestClient_releaseIdleConnections before).
func TestSubtestParentFailNow(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestParentFailNow", Seed: 1, Schedules: 2, StepTimeout: 5 * time.Second})
	if len(rs) != 2 {
		t.Fatalf("want 2 schedules, got %+v\n%s", rs, out)
	}
	for _, r := range rs {
		if r.Outcome != "test-failure" || r.Watchdog != 0 {
			t.Fatalf("want a test failure, got %+v\n%s", r, out)
		}
	}
	for _, want := range []string{"the parent's Fatalf, called from its subtest", "subtest may have called FailNow on a parent test"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "the parent went on") {
		t.Errorf("the parent's t.Run returned:\n%s", out)
	}
	sch := &Schedule{Version: ScheduleVersion, Test: "TestParentFailNow", Seed: rs[1].Seed, Decisions: rs[1].Decisions}
	rr, out, _ := runMain(t, Config{Test: "TestParentFailNow", Replay: sch, StepTimeout: 5 * time.Second})
	if len(rr) != 1 || rr[0].Outcome != "test-failure" || rr[0].Diverged != "" {
		t.Fatalf("replay: %+v\n%s", rr, out)
	}
	rs, out, _ = runMain(t, Config{Test: "TestGrandparentFailNow", Seed: 1, Schedules: 1, StepTimeout: 5 * time.Second})
	if len(rs) != 1 || rs[0].Outcome != "test-failure" || rs[0].Watchdog != 0 || strings.Contains(out, "went on after") {
		t.Fatalf("nested: want a test failure that ends both t.Runs, got %+v\n%s", rs, out)
	}
}

// TestSubtestGoexit: runtime.Goexit in a subtest ends the process with go
// test's panic, as go test does.
func TestSubtestGoexit(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	_, out, code := runMain(t, Config{Test: "TestSubtestGoexit", Seed: 1, Schedules: 1, StepTimeout: 5 * time.Second})
	if code != 2 || !strings.Contains(out, "panic: test executed panic(nil) or runtime.Goexit") {
		t.Fatalf("want go test's panic and exit status 2, got %d:\n%s", code, out)
	}
}

// TestSubtestOwnFailNow: FailNow of the subtest's own t fails the test;
// its t.Run returns false and the parent goes on.
func TestSubtestOwnFailNow(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestOwnFailNow", Seed: 1, Schedules: 2, StepTimeout: 5 * time.Second})
	if len(rs) != 2 || rs[0].Outcome != "test-failure" || rs[1].Outcome != "test-failure" {
		t.Fatalf("want 2 test failures, got %+v\n%s", rs, out)
	}
	if !strings.Contains(out, "the parent went on, t.Run returned false") {
		t.Errorf("the parent did not go on after its subtest's FailNow:\n%s", out)
	}
}
