package explore

import (
	"context"
	"strings"
	"testing"

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
	t.Parallel()
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
