package explore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// fastSuite writes a module whose one package has n fast tests that pass
// and, among them, a test that fails, one that exits the process and one
// that leaves a goroutine blocked for ever (each breaks its batch there).
func fastSuite(t *testing.T, n int) string {
	t.Helper()
	root := t.TempDir()
	var b strings.Builder
	b.WriteString("package fast\n\nimport (\n\t\"os\"\n\t\"sync\"\n\t\"testing\"\n)\n\nvar _ = os.Exit\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `
func TestFast%03d(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for j := 0; j < 2; j++ {
		wg.Add(1)
		go func() { defer wg.Done(); mu.Lock(); n++; mu.Unlock() }()
	}
	wg.Wait()
	if n != 2 {
		t.Fatal(n)
	}
}
`, i)
	}
	b.WriteString(`
func TestFails(t *testing.T) { t.Fatal("fails on every run") }

func TestExits(t *testing.T) { os.Exit(3) }

func TestLeaves(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	go func() { mu.Lock() }()
}
`)
	for name, text := range map[string]string{
		"go.mod":            "module example.com/fast\n\ngo 1.24\n",
		"fast/fast.go":      "package fast\n",
		"fast/fast_test.go": b.String(),
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestPlainBatches: the unperturbed schedules of a suite of 130 fast tests
// run in a few processes, not one each; the tests that break a batch (a
// failure, an exit, a goroutine left in the way) run alone and keep their
// outcome; every test ends with its one unperturbed schedule. Counted, with
// an ample budget: no wall-clock bound.
func TestPlainBatches(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a suite of 130 tests; skipped with -short")
	}
	const n, workers = 130, 2
	ctx := context.Background()
	s, runRE, err := newSearch(Options{Dir: fastSuite(t, n), Patterns: []string{"./..."}, Budget: 10 * time.Minute, Seed: 1, Workers: workers, SchedulesDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.load(ctx); err != nil {
		t.Fatal(err)
	}
	defer s.inst.Cleanup()
	if err := s.makeWorkDir(ctx); err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(s.workDir)
	targets, err := s.selectTests(runRE)
	if err != nil {
		t.Fatal(err)
	}
	built, err := s.buildTargets(ctx, targets)
	if len(built) != n+3 {
		t.Fatalf("%d tests built, want %d: %v", len(built), n+3, err)
	}
	s.startClock(built)
	s.deadline, s.hardStop = budgetEnds(s.start, s.opts.Budget)
	s.plainRuns(ctx, built)

	for _, tg := range built {
		want := "pass"
		switch tg.name {
		case "TestFails":
			want = "test-failure"
		case "TestExits":
			want = "fatal"
		case "TestLeaves":
			want = "leak"
		}
		if tg.stats.Schedules != 1 || !strings.HasPrefix(tg.stats.Plain, want) || tg.stats.Plain != "pass" && !tg.plainStopped && tg.cost <= 0 {
			t.Errorf("%s: %d schedules, unperturbed %q, cost %v; want 1 schedule, %s", tg.name, tg.stats.Schedules, tg.stats.Plain, tg.cost, want)
		}
	}
	// Three batches of 64 at most; a new process after the exit; the three that
	// broke a batch alone (the exit twice: its crash is confirmed).
	procs := s.stats.Processes
	t.Logf("%d tests: %d processes", len(built), procs)
	if most := (n+3+maxBatch-1)/maxBatch + 8; procs > most {
		t.Errorf("%d processes for the unperturbed runs of %d tests, want at most %d (batches)", procs, len(built), most)
	}

	// A batch of the search: two schedules of each test in one process,
	// each test's failures its own; the tests after the exit are returned
	// for a new process.
	byName := map[string]*target{}
	for _, tg := range built {
		byName[tg.name] = tg
	}
	var batch []*target
	for _, name := range []string{"TestFast000", "TestFails", "TestFast001", "TestExits", "TestFast002"} {
		batch = append(batch, byName[name])
	}
	had := map[string]TestStats{}
	for _, tg := range batch {
		had[tg.name] = *tg.stats
	}
	end := time.Now().Add(5 * time.Minute)
	rest := s.searchBatch(ctx, batch, 0, 2, end)
	if len(rest) != 1 || rest[0].name != "TestFast002" {
		t.Fatalf("after the exit: %d tests left, want TestFast002", len(rest))
	}
	if rest = s.searchBatch(ctx, rest, 0, 2, end); len(rest) != 0 {
		t.Fatalf("%d tests left after a batch of one", len(rest))
	}
	for _, tg := range batch {
		got, was := *tg.stats, had[tg.name]
		want := TestStats{Schedules: was.Schedules + 2, Failures: was.Failures, Crashes: was.Crashes}
		switch tg.name {
		case "TestFails":
			want.Failures += 2
		case "TestExits":
			// Its one schedule: the runtime writes its result as the
			// process exits.
			want.Schedules, want.Failures, want.Crashes = was.Schedules+1, was.Failures+1, was.Crashes+1
		}
		if got.Schedules != want.Schedules || got.Failures != want.Failures || got.Crashes != want.Crashes {
			t.Errorf("%s: %d schedules, %d failing, %d crashes; want %d, %d, %d", tg.name, got.Schedules, got.Failures, got.Crashes, want.Schedules, want.Failures, want.Crashes)
		}
	}
	if got := s.stats.Processes - procs; got != 2 {
		t.Errorf("%d processes for two batches", got)
	}

	// The batches end where what the failures found so far need after
	// the search begins, whatever their part: here, before they start.
	procs, schedules := s.stats.Processes, s.stats.Schedules
	s.deadline = time.Now().Add(s.shrinkReserve() / 2)
	s.searchBatches(ctx, built, time.Now().Add(5*time.Minute))
	if s.stats.Processes != procs || s.stats.Schedules != schedules {
		t.Errorf("batches past the time the failures need: %d processes, %d schedules", s.stats.Processes-procs, s.stats.Schedules-schedules)
	}
}

// Tests whose share of the search pays fewer than aloneProcesses
// processes of their own are searched in batches, for their shares; with
// fewer tests, each has its own processes.
func TestSplitBatched(t *testing.T) {
	t.Parallel()
	suite := func(n int, cost time.Duration) []*target {
		var ts []*target
		for i := 0; i < n; i++ {
			ts = append(ts, &target{name: fmt.Sprint(i), weight: 1, cost: cost, stats: &TestStats{Plain: "pass"}})
		}
		return ts
	}
	left := 40 * time.Second
	batched, alone, part := splitBatched(left, suite(372, 300*time.Millisecond))
	if len(batched) != 372 || len(alone) != 0 || part < left-time.Millisecond {
		t.Errorf("372 tests: %d batched, %d alone, %v for the batches; want all batched, all of %v", len(batched), len(alone), part, left)
	}
	batched, alone, part = splitBatched(left, suite(5, 300*time.Millisecond))
	if len(batched) != 0 || len(alone) != 5 || part != 0 {
		t.Errorf("5 tests: %d batched, %d alone, %v; want each alone", len(batched), len(alone), part)
	}
	// A slow test alone beside many fast ones.
	ts := append(suite(100, 300*time.Millisecond), &target{name: "slow", weight: 1, cost: 2 * time.Second, stats: &TestStats{Plain: "pass"}})
	ts[100].weight = 50
	batched, alone, part = splitBatched(left, ts)
	if len(batched) != 100 || len(alone) != 1 || alone[0].name != "slow" {
		t.Errorf("100 fast and a heavy slow one: %d batched, %d alone; want the slow one alone", len(batched), len(alone))
	}
	shares, _ := budgetShares(ts)
	if want := time.Duration(float64(left) * (1 - shares[100])); part < want-time.Millisecond || part > want+time.Millisecond {
		t.Errorf("the batches' part %v, want %v (the fast tests' shares)", part, want)
	}
	if batched, _, part := splitBatched(0, suite(3, time.Millisecond)); len(batched) != 3 || part != 0 {
		t.Errorf("nothing left: %d batched, %v", len(batched), part)
	}
	// One slow test among fast ones that can pay their processes: alone.
	ts = append(suite(3, 100*time.Millisecond), &target{name: "slow", weight: 1, cost: 20 * time.Second, stats: &TestStats{Plain: "pass"}})
	if batched, alone, _ := splitBatched(left, ts); len(batched) != 0 || len(alone) != 4 {
		t.Errorf("one test short of its processes: %d batched, %d alone; want none batched", len(batched), len(alone))
	}
}

// splitBatch keeps the clean passes of a batch and says where the tests it
// did not run begin.
func TestSplitBatch(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	res := func(i int, outcome string) rt.Result {
		return rt.Result{Index: i, Outcome: outcome, Elapsed: 10 * ms}
	}
	for _, c := range []struct {
		name   string
		out    childOutcome
		passed string
		rest   int
	}{
		{"all pass", childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{res(0, "pass"), res(1, "pass"), res(2, "pass")}}, "012", -1},
		{"a failure", childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{res(0, "pass"), res(1, "test-failure"), res(2, "pass")}}, "02", -1},
		{"a race in one", childOutcome{crashed: -1, leftovers: -1, races: []raceReport{{Index: 1}}, results: []rt.Result{res(0, "pass"), res(1, "pass"), res(2, "pass")}}, "02", -1},
		{"a crash", childOutcome{crashed: 1, leftovers: -1, results: []rt.Result{res(0, "pass"), res(1, "fatal")}}, "0", 2},
		{"a crash at the end", childOutcome{crashed: 2, leftovers: -1, results: []rt.Result{res(0, "pass"), res(1, "pass"), res(2, "fatal")}}, "01", -1},
		{"leftovers in the way", childOutcome{crashed: -1, leftovers: 1, results: []rt.Result{res(0, "pass")}}, "0", 1},
		{"stopped by the deadline", childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{res(0, "pass")}}, "0", -1},
		{"the step bound", childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{res(0, "pass"), {Index: 1, Outcome: "pass", Inconclusive: rt.StepBoundPrefix + "no end after 20000 scheduling steps"}, res(2, "pass")}}, "012", -1},
		{"the step bound, the test's goroutine lost", childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{res(0, "pass"), {Index: 1, Outcome: "pass", Inconclusive: rt.StepBoundPrefix + "no end after 20000 scheduling steps; " + rt.LostTestNote}}}, "01", 2},
		{"a skip", childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{res(0, "pass"), {Index: 1, Outcome: "pass", Inconclusive: rt.SkippedPrefix + "x"}, res(2, "pass")}}, "02", -1},
		{"a watchdog's stop", childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{{Index: 0, Outcome: "pass", Watchdog: ms}}}, "", -1},
	} {
		b := splitBatch(&c.out, 3, 100*ms)
		var passed string
		for j, r := range b.passed {
			if r.Outcome != "" {
				passed += fmt.Sprint(j)
			}
		}
		if passed != c.passed || b.rest != c.rest {
			t.Errorf("%s: passed %q, rest %d; want %q, %d", c.name, passed, b.rest, c.passed, c.rest)
		}
	}
	b := splitBatch(&childOutcome{crashed: -1, leftovers: -1, results: []rt.Result{res(0, "pass"), res(1, "pass")}}, 2, 100*ms)
	if b.outside != 80*ms {
		t.Errorf("outside the schedules: %v, want 80ms", b.outside)
	}
	// Stopped in its third test, which ran 50ms: not the others' cost.
	b = splitBatch(&childOutcome{crashed: 2, leftovers: -1, limitStopped: true, openFor: 50 * ms, results: []rt.Result{res(0, "pass"), res(1, "pass")}}, 3, 100*ms)
	if b.outside != 30*ms {
		t.Errorf("outside the schedules, stopped in a slow one: %v, want 30ms (not the slow one's 50ms)", b.outside)
	}
}

// A schedule that runs past the child's scheduleLimit stops its process
// there: killed, that schedule open, long before the hard stop.
func TestScheduleLimit(t *testing.T) {
	t.Parallel()
	bin := buildFake(t)
	c := &child{bin: bin, dir: t.TempDir(), workDir: t.TempDir(), scheduleLimit: 200 * time.Millisecond,
		cfg: rt.Config{Test: "TestHang", Seed: 1, First: 3, Schedules: 1, Deadline: time.Now().Add(time.Hour), StepTimeout: time.Hour}}
	out, err := c.run(context.Background(), time.Now().Add(10*time.Minute), "limit")
	if err != nil {
		t.Fatal(err)
	}
	if !out.limitStopped || !out.killed || out.crashed != 3 {
		t.Errorf("limitStopped %v, killed %v, crashed %d; want true, true, 3", out.limitStopped, out.killed, out.crashed)
	}
}

// The last test of a batch runs on past the schedule limit, to the
// batch's lastLimit: nothing waits behind it in its process, and stopped
// there its run was thrown away and began again alone. A test before it
// is still stopped at the limit.
func TestBatchLastRunsOn(t *testing.T) {
	t.Parallel()
	bin := buildFake(t)
	mk := func(batch []string, last time.Duration) *child {
		return &child{bin: bin, dir: t.TempDir(), workDir: t.TempDir(), scheduleLimit: 100 * time.Millisecond,
			lastLimit: last, lastIndex: len(batch) - 1,
			cfg: rt.Config{Batch: batch, Seed: 1, Schedules: 1, Deadline: time.Now().Add(time.Hour), StepTimeout: time.Hour}}
	}
	out, err := mk([]string{"TestPass", "TestTakes"}, time.Hour).run(context.Background(), time.Now().Add(10*time.Minute), "last")
	if err != nil {
		t.Fatal(err)
	}
	if out.limitStopped || len(out.results) != 2 || out.results[1].Outcome != "pass" {
		t.Errorf("last test of a second: limitStopped %v, %d results; want not stopped, both passed", out.limitStopped, len(out.results))
	}
	out, err = mk([]string{"TestTakes", "TestPass"}, time.Hour).run(context.Background(), time.Now().Add(10*time.Minute), "first")
	if err != nil {
		t.Fatal(err)
	}
	if !out.limitStopped || out.crashed != 0 {
		t.Errorf("first test of a second: limitStopped %v, crashed %d; want stopped in it", out.limitStopped, out.crashed)
	}
}

// A package whose batch processes pass fewer than two tests each is not
// batched again once two ran: its tests run alone (testdata/fakebin fails the tests named TestFail*).
// A package of fast passing tests is batched to the end.
func TestBatchesGiveUp(t *testing.T) {
	t.Parallel()
	bin := buildFake(t)
	s := &search{opts: Options{Workers: 1, StepTimeout: time.Hour}, workDir: t.TempDir(), failures: map[string]*failure{}, counts: map[string]int{}, owners: map[string]*target{}}
	s.start = time.Now()
	s.deadline, s.hardStop = budgetEnds(s.start, time.Hour)
	mk := func(bin, name string) *target {
		return &target{bin: bin, name: name, pkg: rewrite.Package{ImportPath: "example.com/k", Dir: t.TempDir()}, stats: &TestStats{}, plainStopped: true}
	}
	// The same binary under two names: two packages.
	good := filepath.Join(t.TempDir(), "good.test")
	if err := os.Link(bin, good); err != nil {
		t.Fatal(err)
	}
	var failing, passing []*target
	for i := 0; i < 130; i++ {
		failing = append(failing, mk(bin, fmt.Sprintf("TestFail%03d", i)))
		passing = append(passing, mk(good, fmt.Sprintf("TestPass%03d", i)))
	}
	s.plainBatches(context.Background(), append(failing, passing...), time.Now().Add(time.Hour), time.Hour)
	// 130 tests: batches of 64, 64 and 2 each; the failing package's
	// first two pass none, and its third does not run.
	if s.stats.Processes != 5 {
		t.Errorf("%d processes, want 5 (two failing batches, three passing)", s.stats.Processes)
	}
	for _, tg := range passing {
		if tg.plainStopped || tg.stats.Plain != "pass" {
			t.Fatalf("%s: not run in its batch", tg.name)
		}
	}
	for _, tg := range failing {
		if !tg.plainStopped || tg.stopReason != "" {
			t.Fatalf("%s: want it left to run alone", tg.name)
		}
	}
}

// TestRoundCounts: after the first round, a round's time is spread
// evenly over the batched tests, not its schedules: a quick test runs
// many schedules where a slow one runs none or one, and the slow one's
// time is kept for a later round. (Before, every test ran per schedules:
// ants' slow tests took the budget and TestRebootNewPool ran two
// schedules, its data race unfound.)
func TestRoundCounts(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	costs := []time.Duration{20 * ms, 50 * ms, time.Second, 9 * time.Second, 6 * time.Second}
	credit := make([]time.Duration, len(costs))
	got := roundCounts(costs, ones(len(costs)), credit, 2)
	want := []int{64, 32, 2, 0, 0}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("round of per 2: counts %v, want %v", got, want)
	}
	var spent time.Duration
	for i, n := range got {
		spent += time.Duration(n) * costs[i]
	}
	if limit := time.Duration(len(costs)) * 2 * time.Second; spent > limit {
		t.Errorf("the round takes %v, more than %v (per times the median cost, for each test)", spent, limit)
	}
	// The slow tests' credit pays a schedule later; the quick ones stay
	// at the bound without hoarding.
	total := make([]int, len(costs))
	for _, per := range []int{4, 8} {
		for i, n := range roundCounts(costs, ones(len(costs)), credit, per) {
			total[i] += n
		}
	}
	if total[3] < 1 || total[4] < 1 {
		t.Errorf("the slow tests ran %d and %d schedules in two more rounds, want at least one each", total[3], total[4])
	}
	if total[0] != 2*maxRoundSchedules {
		t.Errorf("the quickest test ran %d schedules in two rounds, want %d", total[0], 2*maxRoundSchedules)
	}
	for i, c := range credit {
		if c < 0 || c > 14*time.Second {
			t.Errorf("test %d: credit %v", i, c)
		}
	}
}

// A slow test in a batch stops its process at the batch's limit and is
// marked stopped, slow, with what it ran (the rounds give it twice that
// alone, not the first pass's small slot again); the tests after it go on
// in a new batch, and processes stopped that way do not make the package's
// tests run alone: ants' first two batches each stopped in their first
// (slow) test, and its 38 fast tests then cost a process each.
func TestBatchSlowTests(t *testing.T) {
	// In parallel: its fake processes sleep until stopped (wall time, no CPU), and it
	// shares no state with other tests (its own search, temporary
	// directories, the fake built once).
	t.Parallel()
	bin := buildFake(t)
	s := &search{opts: Options{Workers: 1, StepTimeout: time.Hour}, workDir: t.TempDir(), failures: map[string]*failure{}, counts: map[string]int{}, owners: map[string]*target{}}
	s.start = time.Now()
	s.deadline, s.hardStop = budgetEnds(s.start, time.Hour)
	mk := func(name string) *target {
		return &target{bin: bin, name: name, pkg: rewrite.Package{ImportPath: "example.com/k", Dir: t.TempDir()}, stats: &TestStats{}, plainStopped: true}
	}
	var ts []*target
	for _, name := range []string{"TestSlow1", "TestSlow2", "TestSlow3", "TestPass1", "TestSlow4", "TestPass2", "TestPass3", "TestPass4"} {
		ts = append(ts, mk(name))
	}
	// The fake's passing tests take microseconds between their markers;
	// a second leaves a loaded machine room.
	limit := time.Second
	s.plainBatches(context.Background(), ts, time.Now().Add(time.Hour), limit)
	for _, tg := range ts {
		if strings.HasPrefix(tg.name, "TestPass") {
			if tg.plainStopped || tg.stats.Plain != "pass" {
				t.Errorf("%s: not passed in a batch (stopped %v, %q)", tg.name, tg.plainStopped, tg.stopReason)
			}
			continue
		}
		if !tg.plainStopped || !strings.Contains(tg.stopReason, "in a batch") || tg.ran < limit {
			t.Errorf("%s: stopped %v, reason %q, ran %v; want it stopped as slow, having run its %v", tg.name, tg.plainStopped, tg.stopReason, tg.ran, limit)
		}
	}
	if got := notRun(ts); len(got) != 0 {
		t.Errorf("%d tests left for the first pass alone, want none", len(got))
	}
	// One process per slow test, the passing ones in the processes after.
	if s.stats.Processes != 5 {
		t.Errorf("%d processes, want 5 (one stopped in each slow test, one for the last three)", s.stats.Processes)
	}
}

// ones is n weights of 1: batched tests of equal weight.
func ones(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// TestRoundCountsAwaitPass: a slow test whose unperturbed schedule failed,
// with no schedule passed yet, runs a schedule in every round its credit
// pays none (a passing one tells the failure as the code's: without it,
// the failure is filed as the tool's doing); the same test once a
// schedule passed, or with a race, a hang or a failure plain go test has
// too, waits for its credit as before.
func TestRoundCountsAwaitPass(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	leak := &failure{kind: checks.Leak, message: "leak: goroutines still blocked after the test returned", site: "/src/p/node.go:214"}
	race := &failure{kind: checks.DataRace, message: "data race", site: "/src/p/node.go:214"}
	slow := func(name string, f *failure, passed bool) *target {
		tg := &target{name: name, cost: 2200 * ms, plainKeys: map[string]bool{f.key(): true}, stats: &TestStats{}}
		tg.stats.Schedules, tg.stats.Failures, tg.stats.Elapsed = 1, 1, 2200*ms
		if passed {
			tg.stats.Schedules, tg.stats.Elapsed = 2, 4400*ms
		}
		return tg
	}
	pending := slow("TestIterate", leak, false)
	passed := slow("TestPassedOnce", leak, true)
	raced := slow("TestRaced", race, false)
	same := slow("TestPlainToo", leak, false)
	same.plainSame = map[string]bool{leak.key(): true}
	targets := []*target{pending, passed, raced, same}
	for i := range 6 {
		targets = append(targets, &target{name: fmt.Sprintf("TestQuick%d", i), cost: 20 * ms, stats: &TestStats{}})
	}
	s := &search{failures: map[string]*failure{}}
	for _, tg := range targets[:4] {
		f := leak
		if tg == raced {
			f = race
		}
		s.failures[tg.name+"|"+f.key()] = f
	}
	credit := make([]time.Duration, len(targets))
	for _, per := range []int{2, 4, 8} {
		got := s.roundCountsFor(targets, ones(len(targets)), credit, per)
		if got[0] != 1 {
			t.Errorf("round of per %d: the slow test awaiting a pass runs %d schedules, want 1", per, got[0])
		}
		for i, tg := range targets[1:4] {
			if got[i+1] != 0 {
				t.Errorf("round of per %d: %s runs %d schedules, want 0 (its credit pays none; nothing awaits a pass)", per, tg.name, got[i+1])
			}
		}
		if got[4] == 0 {
			t.Errorf("round of per %d: the quick tests run no schedule", per)
		}
	}
}

// TestDecideAwaiting: after the batches, a batched test whose unperturbed
// schedule failed, with no schedule passed yet, is searched alone until
// its first pass (its process stops there, and no other starts); a test
// that passed once, or whose failure plain go test has too, is not.
func TestDecideAwaiting(t *testing.T) {
	t.Parallel()
	bin := buildFake(t)
	s := &search{opts: Options{Workers: 1, StepTimeout: time.Hour}, workDir: t.TempDir(), failures: map[string]*failure{}, counts: map[string]int{}, owners: map[string]*target{}}
	s.start = time.Now()
	s.deadline, s.hardStop = budgetEnds(s.start, time.Hour)
	leak := &failure{kind: checks.Leak, message: "leak: goroutines still blocked after the test returned", site: "/src/k/k_test.go:70"}
	mk := func(name string) *target {
		tg := &target{bin: bin, name: name, cost: 2 * time.Second, pkg: rewrite.Package{ImportPath: "example.com/k", Dir: t.TempDir()},
			stats: &TestStats{Plain: "leak"}, plainKeys: map[string]bool{leak.key(): true}}
		// Three batched schedules of 2 s, every one failing.
		tg.stats.Schedules, tg.stats.Failures, tg.stats.Elapsed = 3, 3, 6*time.Second
		s.failures[name+"|"+leak.key()] = leak
		s.owners[name+"|"+leak.key()] = tg
		s.order = append(s.order, name+"|"+leak.key())
		return tg
	}
	awaiting := mk("TestAwaitPass")
	passed := mk("TestAwaitPassPassed")
	passed.stats.Failures = 2
	same := mk("TestAwaitPassPlainToo")
	same.plainSame = map[string]bool{leak.key(): true}
	s.decideAwaiting(context.Background(), []*target{awaiting, passed, same})
	// The fake's process fails twice, then passes and stops.
	if !awaiting.somePassed() || awaiting.stats.Schedules != 6 {
		t.Errorf("TestAwaitPass: %d schedules, %d failing after the search for a pass; want 6, 5 (one process, stopped at its first pass)", awaiting.stats.Schedules, awaiting.stats.Failures)
	}
	for _, tg := range []*target{passed, same} {
		if tg.stats.Schedules != 3 {
			t.Errorf("%s: %d schedules, want its 3 (nothing awaits a pass)", tg.name, tg.stats.Schedules)
		}
	}
}
