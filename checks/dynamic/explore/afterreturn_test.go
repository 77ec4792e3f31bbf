package explore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestFailsAfterReturnReported: a test leaves a handler that never returns
// and a Close that fails the test through an assertion helper (a
// testing.TB the rewrite does not see) 30 s after the test returned
// (testdata/afterreturn; watermill's
// TestRouter_wait_for_handlers_before_shutdown). Plain go test passes it:
// its process ends first. Before, the unperturbed schedule's failure was
// "not reported, most likely the tool's doing"; now it is a finding that
// says it failed after it returned, labelled "plain go test passes,
// leaving the same goroutines behind", and replays.
func TestFailsAfterReturnReported(t *testing.T) {
	c, res := searchCounted(t, "../testdata/afterreturn", []string{"."}, 4)
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestCloseWaitsForHandler": checks.TestFailure, "TestCloseStopsHandler": ""},
	}
	checkFindings(context.Background(), t, res, c)
	found := false
	for _, f := range res.Findings {
		if f.Test != "TestCloseWaitsForHandler" {
			continue
		}
		found = true
		t.Logf("%s (%s)", f.Message, f.PlainGo.Label())
		if !strings.Contains(f.Message, "after it returned") || !strings.Contains(f.Message, "router close timeout") || !strings.Contains(f.Message, "router_test.go:27") {
			t.Errorf("message %q, want the failure after the test returned, its words and the handler left at router_test.go:27", f.Message)
		}
		if f.PlainGo == nil || !f.PlainGo.LeavesSame || f.PlainGo.Fails() {
			t.Errorf("label %+v, want plain go test passing and leaving the same goroutines", f.PlainGo)
		}
	}
	if !found {
		t.Errorf("no finding for TestCloseWaitsForHandler; notes: %q", res.Notes)
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "TestClose") {
			t.Errorf("note %q, want none", n)
		}
	}
}

// TestStressTimeoutCoversWaits: a stress run of stressMin runs of a test
// that waits 100 ms gets time for them, not only twice the window.
func TestStressTimeoutCoversWaits(t *testing.T) {
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
