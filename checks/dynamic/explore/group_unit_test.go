package explore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// race builds a data-race finding of test between an access in fn1 at
// line l1 (a write when w1) and one in fn2 at l2.
func race(test, fn1 string, l1 int, w1 bool, fn2 string, l2 int, w2 bool) checks.Finding {
	verb := func(w bool) string {
		if w {
			return "write"
		}
		return "read"
	}
	g := func(id, fn string, l int, w bool) checks.Goroutine {
		return checks.Goroutine{ID: id, State: verb(w), Site: "/m/c.go:" + itoa(l),
			Stack: []checks.Frame{{Func: "runtime.mapassign", File: "/go/src/runtime/map.go", Line: 9}, {Func: fn, File: "/m/c.go", Line: l}}}
	}
	f := checks.Finding{Rule: checks.DynamicRuleID(checks.DataRace), Kind: checks.DataRace, Evidence: checks.Dynamic,
		Package: "m", Test: test, Func: fn1, Pos: checks.Position{File: "/m/c.go", Line: l1}, Snippet: "line " + itoa(l1),
		Message:    test + ": data race: " + verb(w1) + " at c.go:" + itoa(l1) + " and " + verb(w2) + " at c.go:" + itoa(l2),
		Related:    []checks.Related{{Position: checks.Position{File: "/m/c.go", Line: l2}}},
		Goroutines: []checks.Goroutine{g("a", fn1, l1, w1), g("b", fn2, l2, w2)},
		Schedule:   test + "-" + itoa(l1) + "-" + itoa(l2) + ".json"}
	return f
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// stuck builds a deadlock or leak of test with goroutines at sites.
func stuck(kind checks.FailureKind, test string, sites ...string) checks.Finding {
	f := checks.Finding{Rule: checks.DynamicRuleID(kind), Kind: kind, Evidence: checks.Dynamic, Package: "m", Test: test,
		Message: test + ": " + string(kind), Func: "m." + test, Snippet: "wg.Wait() // " + test}
	for i, s := range sites {
		file, line, _ := cutSite(s)
		f.Goroutines = append(f.Goroutines, checks.Goroutine{ID: "g" + itoa(i), State: "blocked", Site: s,
			Stack: []checks.Frame{{Func: "m.f" + itoa(i), File: file, Line: line}}})
		if i == 0 {
			f.Pos = checks.Position{File: file, Line: line}
		}
	}
	return f
}

func TestGroupRacesThroughOneWrite(t *testing.T) {
	t.Parallel()
	get, hits, stats := "m.(*Cache).Get", "m.(*Cache).Hits", "m.(*Cache).Stats"
	fs := []checks.Finding{
		race("TestA", hits, 40, false, get, 26, true),
		race("TestA", get, 26, true, get, 26, false),
		race("TestA", get, 28, true, stats, 45, false),
		race("TestB", get, 26, true, hits, 40, false),
		// Another cause: Inc writes without the lock.
		race("TestA", "m.(*Counter).Inc", 60, true, "m.(*Counter).Inc", 60, false),
		{Rule: "IL2001", Evidence: checks.Static, Pos: checks.Position{File: "/m/c.go", Line: 26}, Message: "write under RLock"},
	}
	out := Group(fs)
	if len(out) != 3 {
		t.Fatalf("got %d findings, want 3 (one cause of four races, another race, the static finding)", len(out))
	}
	g := out[0]
	if g.Pos.Line != 26 || g.Test != "TestA" || len(g.SameCause) != 3 {
		t.Errorf("grouped finding at line %d of %s with %d more, want line 26 (the shared write) of TestA with 3 more", g.Pos.Line, g.Test, len(g.SameCause))
	}
	if got := g.Tests(); len(got) != 2 || got[0] != "TestA" || got[1] != "TestB" {
		t.Errorf("tests %q, want TestA, TestB", got)
	}
	if out[1].Pos.Line != 60 || len(out[1].SameCause) != 0 {
		t.Errorf("the other cause: %+v", out[1])
	}
	if out[2].Evidence != checks.Static {
		t.Errorf("the static finding was grouped: %+v", out[2])
	}
	// Grouping is idempotent, and a shard's group meets its other members.
	again := Group(append(Group(fs[:2]), Group(fs[2:])...))
	if len(again) != 3 || len(again[0].SameCause) != 3 {
		t.Errorf("grouping grouped findings: %d findings, %d more in the first; want 3 and 3", len(again), len(again[0].SameCause))
	}
}

// Two readers racing with one locked writer are one cause (the variable
// the writer guards); two unlocked writers of different variables are two.
func TestGroupRacesDistinctWriters(t *testing.T) {
	t.Parallel()
	fs := []checks.Finding{
		race("T", "m.A", 10, true, "m.A", 10, true),
		race("T", "m.B", 20, true, "m.R", 30, false),
		race("T", "m.R", 30, false, "m.C", 40, false), // a read-read cannot race; no write: its own
	}
	if out := Group(fs); len(out) != 3 {
		t.Errorf("got %d findings, want 3", len(out))
	}
}

func TestGroupStuckSites(t *testing.T) {
	t.Parallel()
	fs := []checks.Finding{
		stuck(checks.Deadlock, "TestTransferAB", "/m/bank.go:20", "/m/bank.go:21", "/m/bank_test.go:10"),
		stuck(checks.Deadlock, "TestTransferBA", "/m/bank.go:21", "/m/bank.go:20", "/m/bank_test.go:30"),
		stuck(checks.Deadlock, "TestOther", "/m/bank.go:20", "/m/bank.go:50", "/m/bank_test.go:40"),
		stuck(checks.Leak, "TestLeak", "/m/bank.go:20", "/m/bank.go:21"),
		stuck(checks.Deadlock, "TestOnlyTest1", "/m/x_test.go:5"),
		stuck(checks.Deadlock, "TestOnlyTest2", "/m/x_test.go:5"),
	}
	out := Group(fs)
	if len(out) != 5 {
		for _, f := range out {
			t.Logf("%s %s %d more", f.Test, f.Kind, len(f.SameCause))
		}
		t.Fatalf("got %d findings, want 5: the same stuck sites in two tests are one", len(out))
	}
	if got := out[0].Tests(); len(got) != 2 {
		t.Errorf("tests %q, want the two transfer tests", got)
	}
}

// A goroutine still running after its test is caught at whichever line
// of its loop it had reached (VictoriaMetrics/metrics' summariesSwapCron:
// its Sleep, Lock or Unlock, in ten tests): one cause, one finding. Two
// loops of different functions stay two, and so do blocked leaks at
// different lines of one function.
func TestGroupRunningLeakOneFunction(t *testing.T) {
	t.Parallel()
	running := func(test, fn string, line int) checks.Finding {
		f := stuck(checks.Leak, test, "/m/summary.go:"+itoa(line))
		f.Message = test + ": " + rt.LeakRunning + "4000 decisions later: g1 running at summary.go:" + itoa(line)
		f.Snippet = "line " + itoa(line)
		f.Goroutines[0].Stack = []checks.Frame{{Func: "m." + fn, File: "/m/summary.go", Line: line}}
		f.Goroutines[0].State = "running"
		return f
	}
	fs := []checks.Finding{
		running("TestDoubleRegister", "summariesSwapCron", 253),
		running("TestNewSet", "summariesSwapCron", 256),
		running("TestSummarySerial", "summariesSwapCron", 263),
		running("TestTicker", "tickLoop", 300),
		stuck(checks.Leak, "TestBlockedA", "/m/pool.go:20"),
		stuck(checks.Leak, "TestBlockedB", "/m/pool.go:21"),
	}
	out := Group(fs)
	if len(out) != 4 {
		for _, f := range out {
			t.Logf("%s %s %d more", f.Test, f.Message, len(f.SameCause))
		}
		t.Fatalf("got %d findings, want 4: the running loop of summariesSwapCron is one cause, caught at any of its lines", len(out))
	}
	for _, f := range out {
		if strings.Contains(f.Message, "summary.go:") && !strings.Contains(f.Message, "summary.go:300") && len(f.Tests()) != 3 {
			t.Errorf("%s: tests %q, want the three of summariesSwapCron", f.Test, f.Tests())
		}
	}
}

// The same failure (fingerprint) in two tests is one finding.
func TestGroupSameFailureInTwoTests(t *testing.T) {
	t.Parallel()
	p := func(test string) checks.Finding {
		return checks.Finding{Rule: checks.DynamicRuleID(checks.Panic), Kind: checks.Panic, Evidence: checks.Dynamic, Package: "m",
			Test: test, Func: "m.close", Snippet: "close(c.done)", Pos: checks.Position{File: "/m/c.go", Line: 7}, Message: test + ": panic: close of closed channel"}
	}
	out := Group([]checks.Finding{p("TestB"), p("TestA")})
	if len(out) != 1 || out[0].Test != "TestA" || len(out[0].SameCause) != 1 || out[0].SameCause[0].Test != "TestB" {
		t.Errorf("got %+v, want one finding of TestA listing TestB", out)
	}
	// The representative is one whose schedule replayed (its replay line
	// is the finding's), whatever the order.
	a, b := p("TestA"), p("TestB")
	a.NotReplayed = checks.NotReplayedNoTime
	if out := Group([]checks.Finding{a, b}); len(out) != 1 || out[0].Test != "TestB" || out[0].NotReplayed != "" {
		t.Errorf("got %+v, want one finding of TestB, replayed, listing TestA", out)
	}
	// A new and a pre-existing failure are not one.
	a, b = p("TestA"), p("TestB")
	a.Baseline, b.Baseline = checks.BaselineNew, checks.BaselineUnchanged
	if out := Group([]checks.Finding{a, b}); len(out) != 2 {
		t.Errorf("new and pre-existing grouped: %d findings", len(out))
	}
}

// SameFailure matches a grouped finding by any of its members.
func TestSameFailureMembers(t *testing.T) {
	t.Parallel()
	get := "m.(*Cache).Get"
	g := Group([]checks.Finding{race("TestA", get, 26, true, get, 26, true), race("TestA", get, 28, true, "m.S", 45, false)})
	if len(g) != 1 {
		t.Fatalf("got %d findings, want 1", len(g))
	}
	other := race("TestA", get, 28, true, "m.S", 45, false)
	if !SameFailure(other, g[0]) || !SameFailure(g[0], other) {
		t.Errorf("a member of the group is not the same failure as the group")
	}
	if SameFailure(race("TestA", "m.X", 70, true, "m.X", 70, true), g[0]) {
		t.Errorf("an unrelated race is the same failure as the group")
	}
}

// A generated test's "not linearizable" and an existing test's own check
// failing for the same window (the shrunk interleavings preempt at the
// same line of the code) are one cause; a failure preempting elsewhere,
// or one whose interleaving was not shrunk, is another.
func TestGroupTestFailuresOneWindow(t *testing.T) {
	t.Parallel()
	tf := func(test, msg string, pos int, sites ...string) checks.Finding {
		il := &checks.Interleaving{Preemptions: len(sites)}
		for i, s := range sites {
			il.Steps = append(il.Steps, checks.Step{G: "g1", Verb: "does an atomic operation", Site: "x_test.go:3"},
				checks.Step{G: "g" + itoa(i+2), Verb: "loads", Site: s, Preempts: "g1"})
		}
		return checks.Finding{Rule: checks.DynamicRuleID(checks.TestFailure), Kind: checks.TestFailure, Evidence: checks.Dynamic,
			Package: "m", Test: test, Func: "m." + test, Pos: checks.Position{File: "/m/x_test.go", Line: pos},
			Message: test + ": test failed: " + msg, Interleaving: il}
	}
	fs := []checks.Finding{
		tf("TestGetDistinct", "two Gets returned the same id", 20, "pool.go:31"),
		tf("TestInterleaveGen_Pool_3", "not linearizable: Get() = 2 / Get() = 2", 40, "pool.go:31"),
		tf("TestPutTwice", "put twice", 60, "pool.go:50"),
		tf("TestNotShrunk", "boom", 80, "pool.go:31", "pool.go:50", "pool.go:31"),
		tf("TestOnlyInTest", "only the test's own lines", 90, "y_test.go:9"),
	}
	out := Group(fs)
	if len(out) != 4 {
		t.Fatalf("got %d findings, want 4: %+v", len(out), out)
	}
	if out[0].Test != "TestGetDistinct" || len(out[0].SameCause) != 1 || out[0].SameCause[0].Test != "TestInterleaveGen_Pool_3" {
		t.Errorf("first finding %s with %+v, want TestGetDistinct listing the generated test", out[0].Test, out[0].SameCause)
	}
	for _, f := range out[1:] {
		if len(f.SameCause) != 0 {
			t.Errorf("%s grouped with %+v", f.Test, f.SameCause)
		}
	}
}

// Test failures decided by one select's choice with no preemption
// (httprc's five tests of a canceled context: the select sends instead of
// taking ctx.Done()) are one window, whichever method called it; a choice
// elsewhere is another, and more choices than maxWindow tell none.
func TestGroupTestFailuresOneChoice(t *testing.T) {
	t.Parallel()
	tf := func(test string, pos int, sites ...string) checks.Finding {
		il := &checks.Interleaving{Chosen: len(sites)}
		for i, s := range sites {
			// Called from another method by each test.
			il.Steps = append(il.Steps, checks.Step{G: "g8", Verb: "selects case 2", Label: "case 1 was ready too", Site: s, Chose: true, Callers: "controller.go:" + itoa(100+pos+i)})
		}
		return checks.Finding{Rule: checks.DynamicRuleID(checks.TestFailure), Kind: checks.TestFailure, Evidence: checks.Dynamic,
			Package: "m", Test: test, Func: "m." + test, Pos: checks.Position{File: "/m/c_test.go", Line: pos},
			Message: test + ": test failed: line " + itoa(pos), Interleaving: il}
	}
	fs := []checks.Finding{
		tf("TestLookup", 20, "controller.go:84"),
		tf("TestRemove", 40, "controller.go:84"),
		tf("TestRefresh", 60, "backend.go:191"),
		tf("TestMany", 80, "controller.go:84", "backend.go:191", "worker.go:27"),
	}
	out := Group(fs)
	if len(out) != 3 || out[0].Test != "TestLookup" || len(out[0].SameCause) != 1 || out[0].SameCause[0].Test != "TestRemove" {
		t.Fatalf("got %d findings, first %s with %+v; want 3, TestLookup listing TestRemove", len(out), out[0].Test, out[0].SameCause)
	}
}

// Kernel-shaped (bench/dynamic/overrun.sh's kernel300): lost updates in
// Bump0 and Bump2, each preempted inside the Get both call (k.go:14), are
// two causes; the window tells them apart by the preempted step's callers
// outside test files. A second test of Bump0 is Bump0's cause again.
func TestGroupTestFailuresCallers(t *testing.T) {
	t.Parallel()
	tf := func(test string, pos int, callers string) checks.Finding {
		il := &checks.Interleaving{Preemptions: 1, Steps: []checks.Step{
			{G: "g0", Verb: "starts", Object: "g1", Site: "k_test.go:" + itoa(pos-5)},
			{G: "g1", Verb: "locks", Object: "c.mu", Site: "k.go:14"},
			{G: "g2", Verb: "locks", Object: "c.mu", Site: "k.go:14", Preempts: "g1", Callers: callers},
			{G: "g2", Verb: "locks", Object: "c.mu", Site: "k.go:12"},
		}}
		return checks.Finding{Rule: checks.DynamicRuleID(checks.TestFailure), Kind: checks.TestFailure, Evidence: checks.Dynamic,
			Package: "k", Test: test, Func: "k." + test, Pos: checks.Position{File: "/k/k_test.go", Line: pos},
			Message: test + ": test failed: lost update", Interleaving: il}
	}
	fs := []checks.Finding{
		tf("TestFast000", 20, "k.go:18"),
		tf("TestFast020", 40, "k.go:24"),
		tf("TestFast000Again", 60, "k.go:18"),
	}
	out := Group(fs)
	if len(out) != 2 {
		t.Fatalf("got %d findings, want 2 (Bump0's, Bump2's): %+v", len(out), out)
	}
	if out[0].Test != "TestFast000" || len(out[0].SameCause) != 1 || out[0].SameCause[0].Test != "TestFast000Again" {
		t.Errorf("first finding %s with %+v, want TestFast000 listing TestFast000Again", out[0].Test, out[0].SameCause)
	}
	if out[1].Test != "TestFast020" || len(out[1].SameCause) != 0 {
		t.Errorf("second finding %s with %+v, want TestFast020 alone", out[1].Test, out[1].SameCause)
	}
}

// A lazy initialization without a lock (GetHistogram looks a name up in a
// map and inserts it when absent) races with itself, and what it made
// races between its creation, inside GetHistogram, and its use by the
// goroutine the racy map handed it to: one cause. Another lazy map
// (Get's) is another cause, and so are races whose writer was not inside
// GetHistogram, or whose reader only was.
func TestGroupLazyInitAndWhatItMade(t *testing.T) {
	t.Parallel()
	getHist, record, get := "m.(*Metrics).GetHistogram", "m.(*Metrics).RequestDuration", "m.Get"
	made := race("T", record, 68, false, "otel.newHistogram", 240, true)
	made.Goroutines[1] = checks.Goroutine{ID: "b", State: "write", Site: "/dep/otel/meter.go:240", Stack: []checks.Frame{
		{Func: "otel.newHistogram", File: "/dep/otel/meter.go", Line: 240},
		{Func: getHist, File: "/m/c.go", Line: 41},
		{Func: record, File: "/m/c.go", Line: 66}}}
	elsewhere := race("T", record, 69, false, "m.(*Metrics).Reset", 90, true)
	elsewhere.Goroutines[1].Stack = append(elsewhere.Goroutines[1].Stack, checks.Frame{Func: record, File: "/m/c.go", Line: 70})
	readerInside := race("T", "m.(*Metrics).Flush", 100, true, "m.(*Metrics).Scan", 110, false)
	readerInside.Goroutines[1].Stack = append(readerInside.Goroutines[1].Stack, checks.Frame{Func: getHist, File: "/m/c.go", Line: 41})
	fs := []checks.Finding{
		race("T", getHist, 37, false, getHist, 42, true),
		made,
		race("T", get, 68, false, get, 74, true),
		elsewhere,
		readerInside,
	}
	out := Group(fs)
	if len(out) != 4 {
		for _, f := range out {
			t.Logf("%s:%d %d more", f.Func, f.Pos.Line, len(f.SameCause))
		}
		t.Fatalf("got %d findings, want 4 (the lazy init with what it made, Get's lazy map, the two others)", len(out))
	}
	g := out[0]
	if g.Func != getHist || g.Pos.Line != 37 || len(g.SameCause) != 1 || g.SameCause[0].Pos.Line != 68 {
		t.Errorf("grouped finding %s:%d with %+v, want GetHistogram's line 37 listing RequestDuration's line 68", g.Func, g.Pos.Line, g.SameCause)
	}
	for _, f := range out[1:] {
		if len(f.SameCause) != 0 {
			t.Errorf("%s:%d grouped with %+v", f.Func, f.Pos.Line, f.SameCause)
		}
	}
}

// TestGroupSendOnClosed: the panic of a send on a closed channel and the
// data race of that send with the close are one cause, the panic its
// finding; a send racing with the close at another line is not, nor is
// another panic at the send's line.
func TestGroupSendOnClosed(t *testing.T) {
	t.Parallel()
	g := func(id, state, fn, top string, l int) checks.Goroutine {
		return checks.Goroutine{ID: id, State: state, Site: "/m/c.go:" + itoa(l),
			Stack: []checks.Frame{{Func: top, File: "/go/src/runtime/x.go", Line: 9}, {Func: fn, File: "/m/c.go", Line: l}}}
	}
	panicAt := func(msg string, l int) checks.Finding {
		return checks.Finding{Rule: checks.DynamicRuleID(checks.Panic), Kind: checks.Panic, Evidence: checks.Dynamic,
			Package: "m", Test: "TestA", Func: "m.send", Pos: checks.Position{File: "/m/c.go", Line: l}, Snippet: msg,
			Message: "TestA: " + msg, Goroutines: []checks.Goroutine{g("g2", "panic", "m.send", "panic", l), g("g0", "WaitGroup.Add", "m.run", "m.run", 18)}}
	}
	sendClose := func(send, close int, closer string) checks.Finding {
		f := race("TestA", "m.send", send, false, closer, close, true)
		f.Goroutines = []checks.Goroutine{g("a", "read", "m.send", "runtime.chansend", send), g("b", "previous write", closer, "runtime.closechan", close)}
		return f
	}
	fs := []checks.Finding{
		sendClose(21, 15, "m.closer"),
		panicAt("panic: send on closed channel", 21),
		sendClose(31, 35, "m.stop"),                            // another send, another close
		panicAt("panic: sync: negative WaitGroup counter", 21), // another failure
	}
	out := Group(fs)
	if len(out) != 3 {
		t.Fatalf("got %d findings, want 3: %+v", len(out), out)
	}
	if f := out[0]; f.Kind != checks.Panic || f.Pos.Line != 21 || len(f.SameCause) != 1 || f.SameCause[0].Pos.Line != 21 {
		t.Errorf("first finding %s at line %d with %d more, want the panic at 21 with the race at 21", f.Kind, f.Pos.Line, len(f.SameCause))
	}
	if out[1].Pos.Line != 31 || out[2].Kind != checks.Panic || len(out[1].SameCause)+len(out[2].SameCause) != 0 {
		t.Errorf("the others: %+v", out[1:])
	}
}

// TestGroupRaceInsidePair: otelmetric-inst's shape. NewPeriodicReader
// starts run, then assigns r.inst from NewInstrumentation; collect reads
// r.inst and, in CollectOp.End, what NewInstrumentation wrote. The field's
// race and the callee's (another variable, other functions) are one cause,
// represented by the field's race even when the callee's sorts first; a
// race whose writer is inside NewPeriodicReader but whose reader is not
// inside collect, one of Shutdown with collect, and one of two accesses in
// the test file are others.
func TestGroupRaceInsidePair(t *testing.T) {
	t.Parallel()
	ctor, collect, run := "m.NewPeriodicReader", "m.(*PeriodicReader).collect", "m.(*PeriodicReader).run"
	fr := func(fn, file string, l int) checks.Frame { return checks.Frame{Func: fn, File: file, Line: l} }
	g := func(state, site string, frames ...checks.Frame) checks.Goroutine {
		return checks.Goroutine{ID: "x", State: state, Site: site, Stack: frames}
	}
	mk := func(test string, pos checks.Position, a, b checks.Goroutine) checks.Finding {
		return checks.Finding{Rule: checks.DynamicRuleID(checks.DataRace), Kind: checks.DataRace, Evidence: checks.Dynamic,
			Package: "m", Test: test, Func: a.Stack[0].Func, Pos: pos, Snippet: a.Site,
			Message: test + ": data race: " + a.State + " at " + a.Site + " and " + b.State + " at " + b.Site, Goroutines: []checks.Goroutine{a, b}}
	}
	reader := "/m/periodic_reader.go"
	obs := "/m/internal/observ/instrumentation.go"
	field := mk("TestCollect", checks.Position{File: reader, Line: 132},
		g("write", reader+":132", fr(ctor, reader, 132), fr("m.TestCollect", "/m/periodic_reader_test.go", 40)),
		g("previous read", reader+":260", fr(collect, reader, 260), fr(run, reader, 200)))
	// Reached from collect's deferred closure, collect's own frame inlined
	// away (as o2's second run showed it).
	callee := mk("TestInstrumentationError", checks.Position{File: obs, Line: 145},
		g("read", obs+":145", fr("observ.CollectOp.End", obs, 145), fr(collect+".func1", reader, 262),
			fr("runtime.deferreturn", "/go/src/runtime/panic.go", 668), fr("m.(*PeriodicReader).Collect", reader, 254), fr(run, reader, 200), fr("m.NewPeriodicReader.func2", reader, 128)),
		g("previous write", obs+":88", fr("observ.NewInstrumentation", obs, 88), fr(ctor, reader, 132), fr("m.TestInstrumentationError", "/m/periodic_reader_test.go", 90)))
	// Written inside the constructor, read by a test helper: not collect.
	otherReader := mk("TestOther", checks.Position{File: obs, Line: 150},
		g("read", obs+":150", fr("observ.Instrumentation.Name", obs, 150), fr("m.peek", "/m/peek.go", 9)),
		g("previous write", obs+":90", fr("observ.newAttrs", obs, 90), fr(ctor, reader, 132)))
	closeRace := mk("TestCollect", checks.Position{File: reader, Line: 300},
		g("write", reader+":300", fr("m.(*PeriodicReader).Shutdown", reader, 300)),
		g("previous read", reader+":265", fr(collect, reader, 265), fr(run, reader, 200)))
	// The test's own race, its two accesses in callbacks of the constructor
	// and of collect: the test's.
	tst := "/m/periodic_reader_test.go"
	testRace := mk("TestFlush", checks.Position{File: tst, Line: 322},
		g("read", tst+":322", fr("m.TestFlush.func3", tst, 322), fr(collect, reader, 275), fr(run, reader, 200)),
		g("previous write", tst+":311", fr("m.TestFlush.func2", tst, 311), fr(collect, reader, 270), fr(ctor, reader, 140)))
	out := Group([]checks.Finding{callee, field, otherReader, closeRace, testRace})
	for _, f := range out {
		t.Logf("%s:%d (%s), %d more", f.Pos.File, f.Pos.Line, f.Test, len(f.SameCause))
	}
	if len(out) != 4 {
		t.Fatalf("got %d findings, want 4: the late publication (field and callee), the other reader's, Shutdown's, the test's", len(out))
	}
	if f := out[0]; f.Pos.Line != 132 || len(f.SameCause) != 1 || f.SameCause[0].Pos.Line != 145 {
		t.Errorf("first finding at %v with %+v, want the field's race at periodic_reader.go:132 listing the callee's at instrumentation.go:145", f.Pos, f.SameCause)
	}
	for _, f := range out[1:] {
		if len(f.SameCause) != 0 {
			t.Errorf("%v grouped with %+v", f.Pos, f.SameCause)
		}
	}
	if again := Group(append(Group([]checks.Finding{callee}), Group([]checks.Finding{field, otherReader, closeRace})...)); len(again) != 3 || again[0].Pos.Line != 132 {
		t.Errorf("grouping shards' findings: %d findings, the first at %v; want 3, the field's first", len(again), again[0].Pos)
	}
}

// TestGroupRacesThroughOneInlinedWrite: a small method that runs a
// sync.Once closure writing a field is inlined into its callers, and Go
// names the closure after each caller (zap's lazy core: "….With.(*lazyWithCore).initOnce.func1"
// and "….Check.(*lazyWithCore).initOnce.func1", one write at
// lazy_with.go:42 raced by Sync in one generated test and by check in
// another, posted as two comments). One closure, one writing function:
// one cause. A closure of another function stays its own cause.
func TestGroupRacesThroughOneInlinedWrite(t *testing.T) {
	t.Parallel()
	fs := []checks.Finding{
		race("TestA", "m.(*L).Get.(*L).init.func1", 12, true, "m.(*L).Ready", 30, false),
		race("TestB", "m.(*L).Set.(*L).init.func1", 12, true, "m.(*L).Peek", 34, false),
		race("TestC", "m.(*L).Get.(*L).reset.func1", 20, true, "m.(*L).Ready", 31, false),
	}
	out := Group(fs)
	if len(out) != 2 {
		for _, f := range out {
			t.Logf("finding %s at %v with %d more", f.Test, f.Pos, len(f.SameCause))
		}
		t.Fatalf("got %d findings, want 2 (init's closure, reached through Get and Set; reset's)", len(out))
	}
	if g := out[0]; g.Pos.Line != 12 || len(g.SameCause) != 1 || len(g.Tests()) != 2 {
		t.Errorf("first finding at line %d with %d more, tests %q; want line 12 with 1 more, TestA and TestB", g.Pos.Line, len(g.SameCause), g.Tests())
	}
	if out[1].Pos.Line != 20 || len(out[1].SameCause) != 0 {
		t.Errorf("reset's race: at line %d with %d more, want line 20 alone", out[1].Pos.Line, len(out[1].SameCause))
	}
}

// TestOuterFunc: a closure's frame is the function it is in.
func TestOuterFunc(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"go.opentelemetry.io/otel/sdk/metric.(*PeriodicReader).collect.func1": "go.opentelemetry.io/otel/sdk/metric.(*PeriodicReader).collect",
		"m.TestX.func3.TestX.func2.1":                                         "m.TestX",
		"m.(*T).function":                                                     "m.(*T).function",
		"m/func1.F":                                                           "m/func1.F",
		"m.NewReader.gowrap1":                                                 "m.NewReader.gowrap1",
	} {
		if got := outerFunc(in); got != want {
			t.Errorf("outerFunc(%q) = %q, want %q", in, got, want)
		}
	}
}

// The causes ReplayFirst picks a member of are replayed first (gen's:
// the tests that call a changed method), the others after, each in its
// order: the fair part of the time left goes to them first.
func TestReplayOrder(t *testing.T) {
	t.Parallel()
	cands := []checks.Finding{{Test: "A"}, {Test: "B"}, {Test: "C"}, {Test: "D"}, {Test: "E"}}
	groups := [][]int{{0}, {1, 2}, {3}, {4}}
	first := func(f checks.Finding) bool { return f.Test == "C" || f.Test == "E" }
	got := fmt.Sprint(replayOrder(groups, cands, first))
	if want := "[[1 2] [4] [0] [3]]"; got != want {
		t.Errorf("replayOrder = %s, want %s", got, want)
	}
	if got := fmt.Sprint(replayOrder([][]int{{0}, {1}}, cands, nil)); got != "[[0] [1]]" {
		t.Errorf("without ReplayFirst: %s, want the order found", got)
	}
}

// Jobs that set three counters the test reads after one sleep race on
// three variables at three pairs of lines, each write in a closure of the
// test that a worker calls: one pair of functions (the test's, the
// closures folded into it), one cause. The same shape in another test is
// that test's own cause; a library pair is its own too.
func TestGroupRacesOnePairOfFunctions(t *testing.T) {
	t.Parallel()
	const tst, lib = "/m/d_test.go", "/m/d.go"
	fr := func(fn, file string, l int) checks.Frame { return checks.Frame{Func: fn, File: file, Line: l} }
	job := func(test string, closure, wl, rl int) checks.Finding {
		fn := "m." + test
		w := checks.Goroutine{ID: "g" + itoa(closure), State: "previous write", Site: tst + ":" + itoa(wl),
			Stack: []checks.Frame{fr(fn+".func"+itoa(closure), tst, wl), fr("m.(*Worker).Start.func1", lib, 28)}}
		r := checks.Goroutine{ID: "g0", State: "read", Site: tst + ":" + itoa(rl), Stack: []checks.Frame{fr(fn, tst, rl)}}
		return checks.Finding{Rule: checks.DynamicRuleID(checks.DataRace), Kind: checks.DataRace, Evidence: checks.Dynamic,
			Package: "m", Test: test, Func: fn, Pos: checks.Position{File: tst, Line: rl}, Snippet: "read " + itoa(rl),
			Message: test + ": data race: read at d_test.go:" + itoa(rl) + " and previous write at d_test.go:" + itoa(wl),
			Related: []checks.Related{{Position: checks.Position{File: tst, Line: wl}}}, Goroutines: []checks.Goroutine{r, w},
			Schedule: test + "-" + itoa(rl) + ".json"}
	}
	fs := []checks.Finding{
		job("TestDispatch", 1, 20, 32), job("TestDispatch", 2, 24, 33), job("TestDispatch", 3, 28, 34),
		job("TestStop", 1, 159, 185),
		race("TestDispatch", "m.(*Dispatcher).Start", 40, true, "m.(*Dispatcher).Start.func1", 57, false),
		race("TestDispatch", "m.(*Dispatcher).Stop", 70, true, "m.(*Dispatcher).run", 80, false),
	}
	out := Group(fs)
	for _, f := range out {
		t.Logf("%s %v, %d more", f.Test, f.Pos, len(f.SameCause))
	}
	if len(out) != 4 {
		t.Fatalf("got %d findings, want 4: TestDispatch's three counters, TestStop's, Start's, Stop's", len(out))
	}
	g := out[0]
	if g.Test != "TestDispatch" || g.Pos.Line != 32 || len(g.SameCause) != 2 {
		t.Fatalf("first finding %s at line %d with %d more, want TestDispatch's at line 32 with the other two counters", g.Test, g.Pos.Line, len(g.SameCause))
	}
	for i, o := range g.SameCause {
		if want := 33 + i; o.Pos.Line != want || len(o.Goroutines) != 2 || o.Goroutines[1].Stack[0].Func != "m.TestDispatch.func"+itoa(2+i) {
			t.Errorf("occurrence %d: %+v, want the race at line %d with both goroutines' stacks", i, o, want)
		}
	}
	for _, f := range out[1:] {
		if len(f.SameCause) != 0 {
			t.Errorf("%s %v grouped with %+v", f.Test, f.Pos, f.SameCause)
		}
	}
}

// A test that a goroutine it left fails after it returned, and the leak of
// what it left on other schedules (watermill's
// TestRouter_wait_for_handlers_before_shutdown: 828 and 2 of 830
// schedules, the leak after an early clock jump), are one cause, told by
// the member that needs no early jump; a test failed in time beside the
// same goroutines is not.
func TestGroupAfterReturnWithItsLeak(t *testing.T) {
	t.Parallel()
	late := stuck(checks.TestFailure, "TestClose", "/m/router.go:608", "/m/router_test.go:1250")
	late.Message = "TestClose: " + rt.AfterReturnMessage + ": router_test.go:1266: router close timeout (what it left behind: …)"
	inTime := stuck(checks.TestFailure, "TestOther", "/m/router.go:608", "/m/router_test.go:1250")
	inTime.Message = "TestOther: test failed: router_test.go:90: want 2"
	leak := stuck(checks.Leak, "TestClose", "/m/router.go:608", "/m/router_test.go:1250")
	leak.EarlyTimers = &checks.EarlyTimers{Jumps: 1, Searched: true}
	fs := []checks.Finding{late, leak, inTime}
	out := Group(fs)
	if len(out) != 2 || len(out[0].SameCause) != 1 {
		for _, f := range out {
			t.Logf("%s %s %d more", f.Test, f.Kind, len(f.SameCause))
		}
		t.Fatalf("got %d findings, want 2: the failure after return with its leak, and the other test's", len(out))
	}
	if out[0].Kind != checks.TestFailure {
		t.Errorf("the cause is told by its %s, which needs an early clock jump; want the failure after return, which does not", out[0].Kind)
	}
	fs[0].EarlyTimers, fs[1].EarlyTimers = fs[1].EarlyTimers, nil
	if out := Group(fs); out[0].Kind != checks.Leak {
		t.Errorf("the cause is told by its %s, which needs an early clock jump; want the leak, which does not", out[0].Kind)
	}
}

// Test failures of one package with one message, places aside, on their
// unperturbed schedules (asynq's tests, each failing at its own line with
// "dial tcp 127.0.0.1:6379: connect: connection refused" when no Redis
// runs) are one cause; the same message on a searched schedule, after
// earlier runs of its process or in another package, or another message
// (numbers count), is another.
func TestGroupTestFailuresOneSetup(t *testing.T) {
	t.Parallel()
	tf := func(pkg, test, msg string, pos int, unperturbed bool) checks.Finding {
		return checks.Finding{Rule: checks.DynamicRuleID(checks.TestFailure), Kind: checks.TestFailure, Evidence: checks.Dynamic,
			Package: pkg, Test: test, Func: pkg + "." + test, Pos: checks.Position{File: "/" + pkg + "/x_test.go", Line: pos},
			Message: test + ": test failed: " + msg, Unperturbed: unperturbed}
	}
	const refused = "dial tcp 127.0.0.1:6379: connect: connection refused"
	later := tf("m", "TestLater", "later_test.go:9: "+refused, 5, true)
	later.AfterEarlier = &checks.AfterEarlier{Schedules: 1}
	fs := []checks.Finding{
		tf("m", "TestAggregator", "aggregator_test.go:19: "+refused, 18, true),
		tf("m", "TestClientEnqueue", "client_test.go:479: "+refused, 470, true),
		tf("m", "TestSearched", "client_test.go:600: "+refused, 590, false),
		later,
		tf("m/other", "TestOther", "other_test.go:12: "+refused, 10, true),
		tf("m", "TestCount", "count_test.go:12: sent 1, want 3", 11, true),
		tf("m", "TestCountTwo", "count_test.go:22: sent 2, want 3", 21, true),
	}
	out := Group(fs)
	if len(out) != 6 {
		t.Fatalf("got %d findings, want 6: %+v", len(out), out)
	}
	if out[0].Test != "TestAggregator" || len(out[0].SameCause) != 1 || out[0].SameCause[0].Test != "TestClientEnqueue" {
		t.Errorf("first finding %s with %+v, want TestAggregator listing TestClientEnqueue", out[0].Test, out[0].SameCause)
	}
	for _, f := range out[1:] {
		if len(f.SameCause) != 0 {
			t.Errorf("%s grouped with %+v", f.Test, f.SameCause)
		}
	}
}

// The budget keeps one replay for the unperturbed runs' test failures of
// one package and message (asynq's 193 kept the search from all of its
// 60 s): one reserve key for them; a searched schedule's failure, or one
// of another package, keeps its own.
func TestReserveKeySetup(t *testing.T) {
	t.Parallel()
	m, other := &target{pkg: rewrite.Package{ImportPath: "m"}}, &target{pkg: rewrite.Package{ImportPath: "m/other"}}
	f := func(strategy, site, msg string) *failure {
		return &failure{kind: checks.TestFailure, strategy: strategy, site: site, message: msg}
	}
	const refused = "dial tcp 127.0.0.1:6379: connect: connection refused"
	a := reserveKey(m, f(rt.PlainStrategy, "a_test.go:18", "test failed: a_test.go:19: "+refused))
	b := reserveKey(m, f(rt.PlainStrategy, "b_test.go:470", "test failed: b_test.go:479: "+refused))
	c := reserveKey(m, f("pct", "c_test.go:590", "test failed: c_test.go:600: "+refused))
	d := reserveKey(other, f(rt.PlainStrategy, "a_test.go:18", "test failed: a_test.go:19: "+refused))
	if a != b {
		t.Errorf("unperturbed failures of one message: keys %q and %q", a, b)
	}
	if c == a || d == a {
		t.Errorf("a searched schedule's failure (%q) or another package's (%q) shares the unperturbed runs' key %q", c, d, a)
	}
}
