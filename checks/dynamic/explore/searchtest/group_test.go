package searchtest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/internal/testctx"
)

// causesDir is the nested module of one-cause-many-failures kernels.
const causesDir = "../../testdata/causes"

// causes is the race build of causesDir's packages, shared by the
// searches and replays of this package's tests (causesBuild).
var causes struct {
	sync.Mutex
	build *explore.Build
}

// causesBuild returns causesDir's absolute path and its race build, made
// by the first test that asks; TestMain closes it.
func causesBuild(t *testing.T) (string, *explore.Build) {
	t.Helper()
	dir, err := filepath.Abs(causesDir)
	if err != nil {
		t.Fatal(err)
	}
	causes.Lock()
	defer causes.Unlock()
	if causes.build == nil {
		b, err := explore.NewBuild(context.Background(), explore.BuildOptions{Dir: dir, Patterns: []string{"./rlock", "./two", "./bumps", "./publish", "./sleepread", "./inlined", "./onehelper", "./cancelsend", "./setup"}, Race: true})
		if err != nil {
			t.Fatal(err)
		}
		causes.build = b
	}
	return dir, causes.build
}

func TestMain(m *testing.M) {
	code := m.Run()
	if causes.build != nil {
		causes.build.Close()
	}
	os.Exit(code)
}

// searchCauses searches one package of testdata/causes under -race for
// a count of schedules (with a budget ample for it on a loaded machine),
// then with other seeds until done accepts the result, at most three
// times more. testUntil is Options.TestUntil.
func searchCauses(t *testing.T, pkg string, testUntil func(checks.Finding) bool, done func(*explore.Result) bool) (*explore.Result, string) {
	t.Helper()
	dir, build := causesBuild(t)
	var res *explore.Result
	for attempt := 0; attempt < 4; attempt++ {
		var err error
		res, err = explore.Run(context.Background(), explore.Options{
			Dir: dir, Patterns: []string{"./" + pkg}, Budget: 5 * time.Minute, Schedules: causesSchedules, Race: true,
			Seed: int64(1 + attempt), SchedulesDir: t.TempDir(), TestUntil: testUntil, Build: build,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, ts := range res.Stats.Tests {
			t.Logf("%s: %d schedules (first failing: %d)", ts.Test, ts.Schedules, ts.ToFirstFailure)
		}
		if done(res) {
			break
		}
		t.Logf("not all failures found in %d schedules per worker; searching again", causesSchedules)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	return res, dir
}

// causesSchedules bounds each worker's schedules of a test in searchCauses.
const causesSchedules = 40

func races(res *explore.Result) []checks.Finding {
	var out []checks.Finding
	for _, f := range res.Findings {
		if f.Kind == checks.DataRace {
			out = append(out, f)
		}
	}
	return out
}

// replayFinding replays a finding's schedule in a fresh process, on the
// shared build's binary (TestBuildFiles and TestBuildTagsReplay replay
// on fresh builds).
func replayFinding(t *testing.T, dir string, f checks.Finding) {
	t.Helper()
	ctx := testctx.New(t)
	_, build := causesBuild(t)
	rr, err := explore.Replay(ctx, f.Schedule, explore.ReplayOptions{Dir: dir, Build: build})
	if err != nil {
		t.Fatalf("replay %s: %v", f.Schedule, err)
	}
	if rr.Outcome != explore.Reproduced || rr.Finding == nil || rr.Finding.Kind != f.Kind {
		t.Errorf("replay %s: %s (%v), want %s again", f.Schedule, rr.Outcome, rr.Finding, f.Kind)
	}
}

// TestOneCauseOneFinding: a Get that writes three fields under the read
// lock races with itself and with two readers, in two tests: several race
// reports (distinct pairs of lines), one finding listing the others, at
// the write they share, whose schedule replays.
func TestOneCauseOneFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a race-instrumented package")
	}
	res, dir := searchCauses(t, "rlock", nil, func(res *explore.Result) bool {
		rs := races(res)
		return len(rs) > 0 && len(rs[0].Tests()) == 2 && len(rs[0].SameCause) >= 3
	})
	rs := races(res)
	for _, f := range rs {
		t.Logf("finding %s at %v: %s", f.Test, f.Pos, f.Message)
		for _, o := range f.SameCause {
			t.Logf("  same cause: %s at %v: %s", o.Test, o.Pos, o.Message)
		}
	}
	if len(rs) != 1 {
		t.Fatalf("got %d data-race findings, want one for the one cause", len(rs))
	}
	f := rs[0]
	if got := f.Tests(); len(got) != 2 {
		t.Errorf("the finding lists tests %q, want TestReaders and TestHitsWhileGetting", got)
	}
	pairs := map[string]bool{f.Message[strings.Index(f.Message, ": ")+2:]: true}
	for _, o := range f.SameCause {
		if !strings.Contains(o.Message, "in rlock.(*Cache).Get") || o.Schedule == "" || !o.Pos.IsValid() {
			t.Errorf("occurrence %+v: want a race through Get with its position and schedule", o)
		}
		pairs[o.Message[strings.Index(o.Message, ": ")+2:]] = true
	}
	if len(pairs) < 3 {
		t.Errorf("the finding lists %d distinct race reports, want at least 3", len(pairs))
	}
	// The representative is a write in Get, the line the pairs share.
	if f.Func != "causes/rlock.(*Cache).Get" {
		t.Errorf("finding in %s, want it in Get, where the writes are", f.Func)
	}
	replayFinding(t, dir, f)
}

// TestSleepReadOneFindingPerTest: jobs (closures a worker calls) and
// goroutines (go statements' closures) set counters each test reads after
// a sleep: every counter is a racing pair of lines of its own, but the
// pairs of one test are one pair of functions, one cause: one finding per
// test, listing its other counters with their stacks, which replays.
func TestSleepReadOneFindingPerTest(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a race-instrumented package")
	}
	res, dir := searchCauses(t, "sleepread", nil, func(res *explore.Result) bool {
		n := 0
		for _, f := range races(res) {
			n += 1 + len(f.SameCause)
		}
		return n >= 5
	})
	rs := races(res)
	more := map[string]int{}
	for _, f := range rs {
		t.Logf("finding %s at %v: %s (%d more)", f.Test, f.Pos, f.Message, len(f.SameCause))
		more[f.Test] += len(f.SameCause)
		for _, o := range f.SameCause {
			if o.Test != f.Test || len(o.Goroutines) != 2 || o.Schedule == "" {
				t.Errorf("occurrence %+v: want a race of %s with both goroutines and its schedule", o, f.Test)
			}
		}
	}
	if len(rs) != 2 || more["TestJobsSetCounters"] != 2 || more["TestGoroutinesSetCounters"] != 1 {
		t.Fatalf("got %d data-race findings (occurrences by test %v), want one per test listing the other counters: 2 and 1", len(rs), more)
	}
	for _, f := range rs {
		replayFinding(t, dir, f)
	}
}

// TestTwoCausesTwoFindings: an unlocked increment and an unlocked length
// read (against a locked append) are two causes: two findings, each
// replaying.
func TestTwoCausesTwoFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a race-instrumented package")
	}
	res, dir := searchCauses(t, "two", nil, func(res *explore.Result) bool { return len(races(res)) >= 2 })
	rs := races(res)
	funcs := map[string]bool{}
	for _, f := range rs {
		t.Logf("finding %s at %v in %s: %s (%d more)", f.Test, f.Pos, f.Func, f.Message, len(f.SameCause))
		funcs[f.Message] = true
	}
	if len(rs) != 2 {
		t.Fatalf("got %d data-race findings, want two, one per cause", len(rs))
	}
	inc := strings.Contains(rs[0].Message, "Inc") && !strings.Contains(rs[0].Message, "Registry")
	add := strings.Contains(rs[1].Message, "Registry")
	if !inc || !add {
		t.Errorf("findings %q and %q, want the counter's race and the registry's", rs[0].Message, rs[1].Message)
	}
	for _, f := range rs {
		replayFinding(t, dir, f)
	}
}

// TestPublishedLateOneFinding: a constructor that starts its goroutine
// before it assigns the field the goroutine reads races on the field and,
// through it, on what the callee that built the value wrote (another
// variable, other lines, other functions), from two tests that reach the
// constructor by two call paths: one finding, at the field's race, listing
// the others, which replays. An unlocked write of another field read in
// the same function (Reset's) is another cause: its own finding.
func TestPublishedLateOneFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a race-instrumented package")
	}
	isReset := func(f checks.Finding) bool { return strings.Contains(f.Message, "in publish.(*Reader).Reset") }
	res, dir := searchCauses(t, "publish", nil, func(res *explore.Result) bool {
		rs := races(res)
		return len(rs) >= 2 && len(rs[0].Tests())+len(rs[1].Tests()) >= 3
	})
	rs := races(res)
	for _, f := range rs {
		t.Logf("finding %s at %v: %s", f.Test, f.Pos, f.Message)
		for _, o := range f.SameCause {
			t.Logf("  same cause: %s at %v: %s", o.Test, o.Pos, o.Message)
		}
	}
	if len(rs) != 2 {
		t.Fatalf("got %d data-race findings, want 2: the late publication's and Reset's", len(rs))
	}
	late, reset := rs[0], rs[1]
	if isReset(late) {
		late, reset = reset, late
	}
	if !strings.Contains(late.Message, "in publish.NewReader") || !strings.Contains(late.Message, "in publish.(*Reader).collect") {
		t.Errorf("the late publication's finding is %q, want the field's race of NewReader and collect", late.Message)
	}
	if got := late.Tests(); len(got) != 2 {
		t.Errorf("the late publication's finding lists tests %q, want TestNewReader and TestOpenAndReset", got)
	}
	through := false
	for _, o := range late.SameCause {
		through = through || strings.Contains(o.Message, "in publish.newStats") && strings.Contains(o.Message, "in publish.(*Stats).record")
		if isReset(checks.Finding{Message: o.Message}) {
			t.Errorf("Reset's race folded into the late publication: %s", o.Message)
		}
	}
	if !through {
		t.Errorf("the race of newStats' write with record's read is not listed in the late publication's finding")
	}
	if !isReset(reset) || len(reset.SameCause) != 0 {
		t.Errorf("the other finding is %q with %d more, want Reset's race alone", reset.Message, len(reset.SameCause))
	}
	replayFinding(t, dir, late)
	replayFinding(t, dir, reset)
}

// TestInlinedWriteOneFinding: one write in a sync.Once closure of a
// method the compiler inlines into its two callers, raced by Ready in one
// test and by Cap in another. The race reports name the writing closure
// after the callers it was inlined into (as
// "inlined.(*Lazy).Len.(*Lazy).init.func1" or
// "inlined.TestWarmReady.func1.(*Lazy).Warm.(*Lazy).init.1"); one cause,
// one finding listing the other test, whose schedule replays (zap's lazy
// core was posted as two comments).
func TestInlinedWriteOneFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a race-instrumented package")
	}
	res, dir := searchCauses(t, "inlined", nil, func(res *explore.Result) bool {
		tests := map[string]bool{}
		for _, f := range races(res) {
			for _, tt := range f.Tests() {
				tests[tt] = true
			}
		}
		return tests["TestWarmReady"] && tests["TestLenCap"]
	})
	rs := races(res)
	for _, f := range rs {
		t.Logf("finding %s at %v: %s", f.Test, f.Pos, f.Message)
		for _, o := range f.SameCause {
			t.Logf("  same cause: %s at %v: %s", o.Test, o.Pos, o.Message)
		}
	}
	if len(rs) != 1 {
		t.Fatalf("got %d data-race findings, want 1: the write in init's closure", len(rs))
	}
	f := rs[0]
	if filepath.Base(f.Pos.File) != "inlined.go" || f.Pos.Line != 20 {
		t.Errorf("the finding is at %v, want inlined.go:20 (the write)", f.Pos)
	}
	if got := f.Tests(); len(got) != 2 {
		t.Errorf("the finding lists tests %q, want TestWarmReady and TestLenCap", got)
	}
	replayFinding(t, dir, f)
}

// TestUntilFailureRepresentsItsCause: the failure explore.Options.Until accepted
// (the one repro looks for) is its cause's finding, even when another
// failure of that cause, found first, would represent it better: here a
// read in Stats, accepted only after a race at a write in Get was seen.
func TestUntilFailureRepresentsItsCause(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a race-instrumented package")
	}
	inStats := func(f checks.Finding) bool {
		return f.Kind == checks.DataRace && strings.HasPrefix(f.Message, "TestReaders: data race: read at rlock.go:45 in rlock.(*Cache).Stats")
	}
	dir, build := causesBuild(t)
	// The budget only bounds a search Until does not end: with other
	// seeds, up to three times more.
	budget := 2 * time.Minute
	for attempt := 0; attempt < 4; attempt++ {
		sawGet := false
		res, err := explore.Run(context.Background(), explore.Options{
			Dir: dir, Patterns: []string{"./rlock"}, Tests: []explore.TestRef{{Package: "causes/rlock", Name: "TestReaders"}},
			Budget: budget, Race: true, Seed: int64(1 + attempt), SchedulesDir: t.TempDir(), Build: build,
			Until: func(f checks.Finding) bool {
				if f.Kind == checks.DataRace && f.Func == "causes/rlock.(*Cache).Get" {
					sawGet = true
				}
				return sawGet && inStats(f)
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Met {
			t.Logf("the read in Stats after a write in Get was not found in %v; searching again", budget)
			continue
		}
		rs := races(res)
		if len(rs) != 1 || !inStats(rs[0]) || len(rs[0].SameCause) == 0 {
			for _, f := range rs {
				t.Logf("finding %s (%d more)", f.Message, len(f.SameCause))
			}
			t.Fatalf("got %d race findings, want one: the read in Stats that Until accepted, listing the race in Get", len(rs))
		}
		replayFinding(t, dir, rs[0])
		return
	}
	t.Fatal("Until never accepted the read in Stats after a race in Get")
}

// TestHelperTwoCallersTwoFindings: lost updates in two methods (BumpA,
// BumpB), each failing schedule preempted inside the Get both call, are
// two causes: two findings, each replaying. The window of each (group.go)
// keeps the preempted step's callers outside test files: BumpA's line,
// BumpB's line; without them the two windows are one (Get's line).
func TestHelperTwoCallersTwoFindings(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a race-instrumented package")
	}
	failures := func(res *explore.Result) []checks.Finding {
		var out []checks.Finding
		for _, f := range res.Findings {
			if f.Kind == checks.TestFailure {
				out = append(out, f)
			}
		}
		return out
	}
	// Each test's search ends at its first lost update.
	lost := func(f checks.Finding) bool { return f.Kind == checks.TestFailure }
	res, dir := searchCauses(t, "bumps", lost, func(res *explore.Result) bool {
		tests := map[string]bool{}
		for _, f := range failures(res) {
			for _, name := range f.Tests() {
				tests[name] = true
			}
		}
		return tests["TestBumpA"] && tests["TestBumpB"]
	})
	src, err := os.ReadFile(filepath.Join(dir, "bumps", "bumps.go"))
	if err != nil {
		t.Fatal(err)
	}
	lineOf := func(text string) string {
		for i, l := range strings.Split(string(src), "\n") {
			if strings.HasPrefix(l, text) {
				return "bumps.go:" + strconv.Itoa(i+1)
			}
		}
		t.Fatalf("no line %q in bumps.go", text)
		return ""
	}
	get := lineOf("func (c *C) Get(")
	caller := map[string]string{"TestBumpA": lineOf("func (c *C) BumpA("), "TestBumpB": lineOf("func (c *C) BumpB(")}
	fs := failures(res)
	for _, f := range fs {
		t.Logf("finding %s: %s (%d more)", f.Test, f.Message, len(f.SameCause))
		if f.Interleaving != nil {
			t.Logf("  %d preemptions (%d before shrinking)", f.Interleaving.Preemptions, f.Interleaving.Original)
			for _, st := range f.Interleaving.Steps {
				t.Logf("  %s (callers %q)", st.Sentence(func(s string) string { return s }), st.Callers)
			}
		}
	}
	if len(fs) != 2 || len(fs[0].SameCause)+len(fs[1].SameCause) != 0 {
		t.Fatalf("got %d test-failure findings, want two (BumpA's and BumpB's), none folding the other", len(fs))
	}
	windows := 0
	for _, f := range fs {
		want, ok := caller[f.Test]
		if !ok || f.Interleaving == nil {
			t.Fatalf("finding of %s with interleaving %v, want TestBumpA's and TestBumpB's, told", f.Test, f.Interleaving)
		}
		// Every preemption in the code under test is inside Get or Set,
		// called from the test's Bump method.
		inGet := false
		for _, st := range f.Interleaving.Steps {
			if st.Preempts == "" || strings.Contains(st.Site, "_test.go") {
				continue
			}
			if first, _, _ := strings.Cut(st.Callers, " "); first != want {
				t.Errorf("%s: %s preempts at %s called from %q, want from %s", f.Test, st.G, st.Site, st.Callers, want)
			}
			inGet = inGet || st.Site == get
		}
		if inGet && f.Interleaving.Preemptions <= 2 {
			windows++
		}
		replayFinding(t, dir, f)
	}
	if windows == 2 {
		// Both told with a window in the shared helper: without the
		// callers they would be one cause.
		blank := func(f checks.Finding) checks.Finding {
			il := *f.Interleaving
			il.Steps = append([]checks.Step(nil), il.Steps...)
			for i := range il.Steps {
				il.Steps[i].Callers = ""
			}
			f.Interleaving = &il
			return f
		}
		if n := len(explore.Group([]checks.Finding{blank(fs[0]), blank(fs[1])})); n != 1 {
			t.Errorf("without callers: %d findings, want the one the helper's window folds", n)
		}
		if n := len(explore.Group(fs)); n != 2 {
			t.Errorf("regrouped: %d findings, want 2", n)
		}
	} else {
		t.Logf("%d of the 2 findings told with at most 2 preemptions, one in Get: the regrouping check is skipped", windows)
	}
}

// TestOneHelperTwoTestsOneFinding: two tests lose a deposit in the one
// Deposit, each with its own assertion: one cause, one finding listing
// the other test, which replays. A search's failing schedules preempt too
// often to tell a window (group.go's maxWindow); the shrunk ones preempt
// once, inside Deposit, and are grouped again after shrinking (regroup).
func TestOneHelperTwoTestsOneFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a race-instrumented package")
	}
	fs, dir := searchTestFailures(t, "onehelper", "TestDepositOnes", "TestDepositTens")
	if len(fs) != 1 {
		t.Fatalf("got %d test-failure findings, want one for the one lost update", len(fs))
	}
	if got := fs[0].Tests(); len(got) != 2 {
		t.Errorf("the finding lists tests %q, want TestDepositOnes and TestDepositTens", got)
	}
	replayFinding(t, dir, fs[0])
}

// searchTestFailures searches pkg (searchCauses), each test until its
// first test failure, until every one of tests is among the findings'
// tests, and returns the test-failure findings, each logged with its
// story.
func searchTestFailures(t *testing.T, pkg string, tests ...string) ([]checks.Finding, string) {
	t.Helper()
	failed := func(f checks.Finding) bool { return f.Kind == checks.TestFailure }
	failures := func(res *explore.Result) []checks.Finding {
		var out []checks.Finding
		for _, f := range res.Findings {
			if failed(f) {
				out = append(out, f)
			}
		}
		return out
	}
	res, dir := searchCauses(t, pkg, failed, func(res *explore.Result) bool {
		found := map[string]bool{}
		for _, f := range failures(res) {
			for _, name := range f.Tests() {
				found[name] = true
			}
		}
		for _, name := range tests {
			if !found[name] {
				return false
			}
		}
		return true
	})
	fs := failures(res)
	for _, f := range fs {
		t.Logf("finding %s: %s (%d more)", f.Test, f.Message, len(f.SameCause))
		if f.Interleaving != nil {
			t.Logf("  %d preemptions (%d before shrinking), %d selects took a later ready case", f.Interleaving.Preemptions, f.Interleaving.Original, f.Interleaving.Chosen)
			for _, st := range f.Interleaving.Steps {
				t.Logf("  %s (callers %q)", st.Sentence(func(s string) string { return s }), st.Callers)
			}
		}
	}
	return fs, dir
}

// TestOneChoiceTwoMethodsOneFinding: Get and Has of a canceled context
// fail when the one select they both go through sends instead of taking
// ctx.Done() (testdata/causes/cancelsend; httprc's five tests): one
// finding listing the other test, told by that choice with no
// preemption, which replays.
func TestOneChoiceTwoMethodsOneFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a race-instrumented package")
	}
	fs, dir := searchTestFailures(t, "cancelsend", "TestGetCanceled", "TestHasCanceled")
	if len(fs) != 1 {
		t.Fatalf("got %d test-failure findings, want one for the one select", len(fs))
	}
	f := fs[0]
	if got := f.Tests(); len(got) != 2 {
		t.Errorf("the finding lists tests %q, want TestGetCanceled and TestHasCanceled", got)
	}
	told := false
	for _, st := range f.Interleaving.Steps {
		told = told || st.Chose && strings.HasPrefix(st.Site, "cancelsend.go:")
	}
	if !told {
		t.Errorf("the story does not tell the select's choice")
	}
	replayFinding(t, dir, f)
}

// TestSetupFailuresOneFinding: three tests fail in their set-up, each at
// its own line, with one message (testdata/causes/setup: the server's
// socket is not there; asynq's 193 tests without Redis): one finding
// listing the other two, which replays; a test failing its own check
// beside them is a finding of its own.
func TestSetupFailuresOneFinding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches a race-instrumented package")
	}
	fs, dir := searchTestFailures(t, "setup", "TestSendOne", "TestSendTwo", "TestSendThree", "TestCount")
	if len(fs) != 2 {
		t.Fatalf("got %d test-failure findings, want one for the missing server and one for TestCount", len(fs))
	}
	var server checks.Finding
	for _, f := range fs {
		if f.Test != "TestCount" && !slices.Contains(f.Tests(), "TestCount") {
			server = f
		}
	}
	got := server.Tests()
	slices.Sort(got)
	if want := []string{"TestSendOne", "TestSendThree", "TestSendTwo"}; !slices.Equal(got, want) {
		t.Errorf("the missing server's finding lists %q, want %q", got, want)
	}
	replayFinding(t, dir, server)
}
