package explore

import (
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// loopG is a goroutine caught at site (its innermost frame, in inner)
// inside the loop that root started: root is its outermost frame, in
// rootFile.
func loopG(id, site, inner, root, rootFile string) checks.Goroutine {
	file, line, _ := cutSite(site)
	return checks.Goroutine{ID: id, State: "running", Site: site, Stack: []checks.Frame{
		{Func: inner, File: file, Line: line},
		{Func: root, File: rootFile, Line: 128},
	}}
}

// leakOf is a leak of TestCollect's goroutines gs, still running
// (rt.LeakRunning) unless blocked; its function and message follow its
// first goroutine, so that two such leaks differ in fingerprint and
// message (only the notion of the same running leak can make them one).
func leakOf(blocked bool, gs ...checks.Goroutine) checks.Finding {
	msg := rt.LeakRunning + "4000 decisions later: g2 running at "
	if blocked {
		msg = rt.LeakBlocked + "g2 blocked at "
	}
	file, line, _ := cutSite(gs[0].Site)
	fn, sites := "m.unknown", ""
	if len(gs[0].Stack) > 0 {
		fn = gs[0].Stack[0].Func
	}
	for _, g := range gs {
		sites += " " + g.ID + " at " + g.Site
	}
	return checks.Finding{Rule: checks.DynamicRuleID(checks.Leak), Kind: checks.Leak, Evidence: checks.Dynamic,
		Package: "m", Test: "TestCollect", Func: fn, Snippet: sites,
		Pos: checks.Position{File: file, Line: line}, Message: "TestCollect: " + msg + sites, Goroutines: gs}
}

// TestSameRunningLeakTable: one notion of "the same running leak" for
// both its callers: grouping (Group: one cause, one finding) and a base
// commit's failures (SameFailure: not new in this change). Two leaks of
// goroutines still running are one when the same functions started the
// goroutines outside test files (runningLoops), whatever line of the
// loop, or callee, each was caught in. Until replay28 grouping compared
// the functions the goroutines were caught in and SameFailure the ones
// that started them, each goroutine counted: "was" says what each said
// then (where they disagreed, and where both went by the caught place).
func TestSameRunningLeakTable(t *testing.T) {
	t.Parallel()
	const reader, exporter, test = "m.NewReader.func2", "m.NewExporter.func1", "m.TestCollect.func1"
	swap := loopG("g2", "/m/atomic.go:119", "m/internal.(*waitGroup).swap", reader, "/m/reader.go")
	swap4 := loopG("g4", "/m/atomic.go:119", "m/internal.(*waitGroup).swap", reader, "/m/reader.go")
	sum := loopG("g2", "/m/sum.go:226", "m/internal.(*sum).cumulative", "m.NewReader.func1", "/m/reader.go")
	produce := loopG("g4", "/m/pipeline.go:139", "m.(*pipeline).produce", "m.NewReader.func1", "/m/reader.go")
	exp := loopG("g2", "/m/sum.go:230", "m/internal.(*sum).cumulative", exporter, "/m/exporter.go")
	cron := func(line int) checks.Goroutine {
		site := "/m/summary.go:" + itoa(line)
		return checks.Goroutine{ID: "g1", State: "running", Site: site, Stack: []checks.Frame{{Func: "m.summariesSwapCron", File: "/m/summary.go", Line: line}}}
	}
	tick := checks.Goroutine{ID: "g1", State: "running", Site: "/m/summary.go:300", Stack: []checks.Frame{{Func: "m.tickLoop", File: "/m/summary.go", Line: 300}}}
	own := loopG("g5", "/m/collect_test.go:40", test, test, "/m/collect_test.go")
	bare := checks.Goroutine{ID: "g2", State: "running", Site: "/m/sum.go:226"}
	for _, c := range []struct {
		name string
		a, b checks.Finding
		same bool
		was  string // what grouping and SameFailure said before replay28
	}{
		{"the same loop caught in two callees (otelmetric's readers, head and base)",
			leakOf(false, swap, swap4), leakOf(false, sum, produce), true, "SameFailure one, grouping two (by the callee)"},
		{"the same function's loop at two of its lines (summariesSwapCron)",
			leakOf(false, cron(253)), leakOf(false, cron(263)), true, "both one"},
		{"two loops' functions", leakOf(false, cron(253)), leakOf(false, tick), false, "both two"},
		{"other starters caught in the same callee, at two lines",
			leakOf(false, sum), leakOf(false, exp), false, "both one (grouping by the callee, SameFailure by function and message)"},
		{"one of the same function's two loops",
			leakOf(false, swap), leakOf(false, swap, swap4), true, "SameFailure two (each goroutine counted), grouping one"},
		{"the same loop beside a goroutine of the test's own",
			leakOf(false, sum), leakOf(false, sum, own), true, "SameFailure two, grouping one (test files left out)"},
		{"another loop beside the test's own goroutine",
			leakOf(false, exp, own), leakOf(false, sum, own), false, "both one"},
		{"the test's own goroutine alone, at two lines",
			leakOf(false, own), leakOf(false, loopG("g5", "/m/collect_test.go:44", test, test, "/m/collect_test.go")), true, "SameFailure one, grouping two (no key: all in test files)"},
		{"blocked, the same loop in two callees",
			leakOf(true, sum), leakOf(true, loopG("g2", "/m/pipeline.go:139", "m.(*pipeline).produce", "m.NewReader.func1", "/m/reader.go")), false, "both two"},
		{"no stack", leakOf(false, bare), leakOf(false, sum), false, "both two"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := SameFailure(c.a, c.b); got != c.same || SameFailure(c.b, c.a) != got {
				t.Errorf("SameFailure: %v, want %v (before: %s)", got, c.same, c.was)
			}
			want := 2
			if c.same {
				want = 1
			}
			if got := len(Group([]checks.Finding{c.a, c.b})); got != want {
				t.Errorf("Group: %d findings, want %d (before: %s)", got, want, c.was)
			}
		})
	}
}
