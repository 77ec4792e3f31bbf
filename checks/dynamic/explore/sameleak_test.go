package explore

import (
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// Two leaks of goroutines still running, from the same test and started
// by the same functions, are one failure wherever their loops were
// stopped (otelmetric v1.39.0's TestPeriodicReaderCollect: its readers'
// run loops, never shut down, stopped in the new atomic.go on the head and
// in sum.go on the base), and so are one of those loops and two; other
// starters, or a leak of blocked goroutines at another place, are not.
func TestSameRunningLeak(t *testing.T) {
	t.Parallel()
	g := func(id, site, inner, root string) checks.Goroutine {
		return checks.Goroutine{ID: id, State: "running", Site: site, Stack: []checks.Frame{
			{Func: inner, File: site, Line: 1},
			{Func: "m.(*Reader).run", File: "reader.go", Line: 189},
			{Func: root, File: "reader.go", Line: 128},
		}}
	}
	leak := func(msg, fn string, gs ...checks.Goroutine) checks.Finding {
		return checks.Finding{Rule: checks.DynamicRuleID(checks.Leak), Kind: checks.Leak, Evidence: checks.Dynamic,
			Package: "m", Test: "TestCollect", Func: fn, Pos: checks.Position{File: "/m/" + gs[0].Site, Line: 1},
			Message: "TestCollect: " + msg + gs[0].Site, Goroutines: gs}
	}
	running := rt.LeakRunning + "4000 decisions later: g2 running at "
	head := leak(running, "m/internal.(*waitGroup).swap",
		g("g2", "atomic.go:119", "m/internal.(*waitGroup).swap", "m.NewReader.func2"),
		g("g4", "atomic.go:119", "m/internal.(*waitGroup).swap", "m.NewReader.func2"))
	base := leak(running, "m/internal.(*sum).cumulative",
		g("g2", "sum.go:226", "m/internal.(*sum).cumulative", "m.NewReader.func1"),
		g("g4", "pipeline.go:139", "m.(*pipeline).produce", "m.NewReader.func1"))
	if !SameFailure(head, base) || !SameFailure(base, head) {
		t.Errorf("the readers' loops stopped at other lines on the base are not the same leak")
	}
	other := leak(running, "m/internal.(*sum).cumulative",
		g("g2", "sum.go:226", "m/internal.(*sum).cumulative", "m.NewExporter.func1"),
		g("g4", "sum.go:226", "m/internal.(*sum).cumulative", "m.NewReader.func1"))
	if SameFailure(head, other) {
		t.Errorf("a leak of goroutines another function started is the same leak")
	}
	// The loop is the cause however many the test started (replay28:
	// runningLoops, as grouping and the search's dedupe key count).
	one := leak(running, "m/internal.(*sum).cumulative", g("g2", "sum.go:226", "m/internal.(*sum).cumulative", "m.NewReader.func1"))
	if !SameFailure(head, one) {
		t.Errorf("a leak of one of the two loops is not the same leak")
	}
	blocked := "leak: goroutines still blocked after the test returned: g2 blocked at "
	bh, bb := leak(blocked, "m/internal.(*waitGroup).swap", head.Goroutines...), leak(blocked, "m/internal.(*sum).cumulative", base.Goroutines...)
	if SameFailure(bh, bb) {
		t.Errorf("blocked leaks at other places are the same leak")
	}
}
