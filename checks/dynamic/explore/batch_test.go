package explore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestPlainBatches: the unperturbed schedules of a suite of 300+ fast tests
// run in a few processes, not one each; the tests that break a batch (a
// failure, an exit, a goroutine left in the way) run alone and keep their
// outcome; every test ends with its one unperturbed schedule. Counted, with
// an ample budget: no wall-clock bound.
func TestPlainBatches(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a suite of 320 tests; skipped with -short")
	}
	const n, workers = 320, 2
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
	// Five batches of 64; a new process after the exit; the three that
	// broke a batch alone (the exit twice: its crash is confirmed).
	procs := s.stats.Processes
	t.Logf("%d tests: %d processes", len(built), procs)
	if most := (n+3+maxBatch-1)/maxBatch + 8; procs > most {
		t.Errorf("%d processes for the unperturbed runs of %d tests, want at most %d (batches)", procs, len(built), most)
	}
}

// splitBatch keeps the clean passes of a batch and says where the tests it
// did not run begin.
func TestSplitBatch(t *testing.T) {
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
}
