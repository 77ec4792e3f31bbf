package explore

import (
	"context"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestGenericJanitorLeft: a generic cache's janitor that a test never
// stops (testdata/genericjanitor; go-generics-cache's New) is a leak
// finding labelled "plain go test passes, leaving the same goroutines
// behind", and replays. Under interleave the janitor's literal is named
// New[...].(*janitor).run.func2 (the rewrite lets the compiler inline
// run), under plain go test (*janitor).run.func1: matched by name only, the
// plain run's goroutine was not the same and the leak was a note, "most
// likely the tool's doing". The test that stops its janitor stays silent.
// The finding is at the janitor's select on its ticker (cache.go:24),
// where it waits between ticks, not at the lock of the purge a tick runs
// (cache.go:71 or :79, wherever the schedule's window stopped it).
func TestGenericJanitorLeft(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, "../testdata/genericjanitor", []string{"."}, 8)
	c.Want = testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestJanitorLeft": checks.Leak, "TestJanitorStopped": ""},
		Sites: map[string]string{"TestJanitorLeft": "cache.go:24"},
	}
	checkFindings(context.Background(), t, res, c)
	for _, f := range res.Findings {
		if f.Test == "TestJanitorLeft" && (f.PlainGo == nil || !f.PlainGo.LeavesSame || f.PlainGo.Fails()) {
			t.Errorf("%s: label %+v, want plain go test passing and leaving the same goroutines", f.Test, f.PlainGo)
		}
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "TestJanitor") {
			t.Errorf("note %q, want none", n)
		}
	}
}
