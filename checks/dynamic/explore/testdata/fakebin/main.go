// Command fakebin speaks the driver protocol of package rt without a
// scheduler, so that the driver's process handling can be tested before and
// independently of the real runtime. The Config's Test name picks a behaviour.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// minSchedules is how many schedules a process runs even past its deadline:
// enough for every behaviour below to show in each worker.
const minSchedules = 8

func main() {
	path := os.Getenv(rt.EnvConfig)
	if path == "" {
		fmt.Println("--- SKIP: TestInterleaveDriver (no config)")
		return
	}
	b, err := os.ReadFile(path)
	if err != nil {
		panic(err)
	}
	var cfg rt.Config
	if err := json.Unmarshal(b, &cfg); err != nil {
		panic(err)
	}
	out, err := os.OpenFile(cfg.Results, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		panic(err)
	}
	if len(cfg.Batch) > 0 {
		// One schedule of each test named: those whose name starts with
		// TestFail fail, those with TestSlow run until stopped, those
		// with TestTakes pass after a second, the others pass.
		for j, name := range cfg.Batch {
			i := cfg.First + j
			fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerStart, i)
			if strings.HasPrefix(name, "TestSlow") {
				time.Sleep(time.Hour)
			}
			if strings.HasPrefix(name, "TestTakes") {
				time.Sleep(time.Second)
			}
			r := rt.Result{Index: i, Seed: cfg.Seed + int64(i), Outcome: "pass", Steps: 1, Choices: 1}
			if strings.HasPrefix(name, "TestFail") {
				r.Outcome, r.Message, r.Site = "test-failure", "test failed: "+name, "/src/k/k_test.go:70"
			}
			if strings.HasPrefix(name, "TestLongSteps") {
				longSteps(&r, name, cfg.MaxSteps)
			}
			line, _ := json.Marshal(r)
			out.Write(append(line, '\n'))
			fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerEnd, i)
		}
		return
	}
	if cfg.Test == "TestSkip" {
		fmt.Println("--- SKIP: TestInterleaveDriver (interleave: scheduler not linked in yet)")
		return
	}
	if cfg.Replay != nil && (cfg.Test == "TestDivergeSame" || cfg.Test == "TestDivergePass") {
		replayDiverging(cfg, out)
		return
	}
	if cfg.Replay != nil && strings.HasPrefix(cfg.Test, "TestRefind") {
		replayRefind(cfg, out)
		return
	}
	if cfg.Replay != nil && (cfg.Test == "TestReplayFlaky" || cfg.Test == "TestReplayThenHang") {
		replayFlaky(cfg, out)
		return
	}
	if cfg.Replay != nil && cfg.Test == "TestShrinkable" {
		replayShrinkable(cfg, out)
		return
	}
	if cfg.Replay != nil && cfg.Test == "TestShrinkResync" {
		replayShrinkResync(cfg, out)
		return
	}
	if cfg.Replay != nil && cfg.Test == "TestShrinkCut" {
		replayShrinkCut(cfg, out)
		return
	}
	if cfg.Test == "TestExitSlow" {
		// After its schedules the process does not exit (as one whose
		// goroutines of an ended schedule hold it): the driver stops it.
		defer func() {
			fmt.Println("PASS")
			time.Sleep(time.Hour)
		}()
	}
	for j := 0; cfg.Schedules == 0 || j < cfg.Schedules; j++ {
		// The first few schedules run whatever the clock says, so that a
		// process started late on a loaded machine still shows its
		// behaviour: the tests do not depend on the machine's speed.
		if j >= minSchedules && time.Now().After(cfg.Deadline) {
			return
		}
		i := cfg.First + j
		seed := cfg.Seed + int64(i)
		fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerStart, i)
		r := rt.Result{Index: i, Seed: seed, Outcome: "pass", Decisions: []rt.Decision{{G: 0, Site: "x.go:1", Op: "go"}}, Steps: 1, Choices: 1} // its tests are concurrent: a choice
		switch cfg.Test {
		case "TestLongSteps", "TestLongStepsMore":
			longSteps(&r, cfg.Test, cfg.MaxSteps)
		case "TestCrash":
			if seed%7 == 3 {
				fmt.Fprintf(os.Stderr, "fatal error: concurrent map writes\n\ngoroutine 7 [running]:\ninternal/runtime/maps.fatal({0x1, 0x2})\n\t/usr/local/go/src/runtime/panic.go:1181 +0x18\nexample.com/k.(*store).put(...)\n\t/src/k/k.go:12 +0x4d\nexample.com/k.TestStore.func1()\n\t/src/k/k_test.go:20 +0x2b\n")
				os.Exit(2)
			}
		case "TestRace":
			if j == 1 {
				fmt.Fprintf(os.Stderr, "==================\nWARNING: DATA RACE\nWrite at 0x00c000012345 by goroutine 8:\n  example.com/k.TestRace.func1()\n      /src/k/k_test.go:30 +0x44\n\nPrevious read at 0x00c000012345 by goroutine 7:\n  example.com/k.TestRace.func2()\n      /src/k/k_test.go:33 +0x44\n\nGoroutine 8 (running) created at:\n  example.com/k.TestRace()\n      /src/k/k_test.go:29 +0x1\n==================\n")
			}
		case "TestDeadlock":
			if seed%2 == 0 {
				r.Outcome, r.Message, r.Site = "deadlock", "deadlock: every goroutine is blocked", "/src/k/k_test.go:40"
				r.Goroutines = []rt.GoroutineState{
					{ID: 1, Op: "Mutex.Lock", Site: "/src/k/k_test.go:40", Stack: "goroutine 9 [sync.Mutex.Lock]:\nexample.com/k.transfer(...)\n\t/src/k/k_test.go:40 +0x1\n"},
					{ID: 2, Op: "Mutex.Lock", Site: "/src/k/k_test.go:41", Stack: "goroutine 10 [sync.Mutex.Lock]:\nexample.com/k.transfer(...)\n\t/src/k/k_test.go:41 +0x1\n"},
				}
			}
		case "TestHang":
			time.Sleep(time.Hour)
		case "TestAwaitPass":
			// Its first two schedules in a process leak, the third
			// passes; it stops at that pass when asked to.
			if j < 2 {
				r.Outcome, r.Message, r.Site = "leak", "leak: goroutines still blocked after the test returned", "/src/k/k_test.go:70"
			}
		case "TestLongLeak":
			// A failing schedule that runs long (a leak still running
			// gets thousands of decisions), its replay as long.
			time.Sleep(2 * time.Second)
			r.Outcome, r.Message, r.Site = "leak", "leak: goroutines still running after the test returned", "/src/k/k_test.go:70"
		case "TestExitSlow":
			if j == 0 {
				r.Outcome, r.Message, r.Site = "test-failure", "test failed: send: closed", "/src/k/k_test.go:50"
			}
		case "TestRefind", "TestRefindNever", "TestRefindPrior", "TestRefindPriorNever":
			// As TestDivergePass after a process's first schedule (the
			// state earlier ones left changes its first decision, and
			// its failures do not replay alone); TestRefind and
			// TestRefindPrior fail on even seeds as a process's first
			// schedule too, as the ...Never ones never do (they need
			// what ran before).
			if j > 0 {
				r.Decisions[0].Op = "Timer.Reset"
			}
			if seed%2 == 0 && (j > 0 || !strings.HasSuffix(cfg.Test, "Never")) {
				r.Outcome, r.Message, r.Site = "test-failure", "test failed: read: reset", "/src/k/k_test.go:60"
			}
		case "TestDivergeSame", "TestDivergePass":
			// In a search process the state earlier schedules left (a
			// pooled timer) changes the first decision after the first
			// schedule; the failure does not depend on it.
			if j > 0 {
				r.Decisions[0].Op = "Timer.Reset"
			}
			if j > 0 && seed%2 == 0 {
				r.Outcome, r.Message, r.Site = "test-failure", "test failed: read: reset", "/src/k/k_test.go:60"
			}
		}
		line, _ := json.Marshal(r)
		out.Write(append(line, '\n'))
		fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerEnd, i)
		if cfg.Test == "TestAwaitPass" && cfg.StopOnPass && r.Outcome == "pass" {
			return
		}
	}
}

// longStepsNeeded is the steps TestLongSteps takes, more than an
// unperturbed run's first bound (explore.PlainMaxSteps); TestLongStepsMore
// takes more than any longer run's. Each step takes 20µs.
const longStepsNeeded = 180000

// longSteps makes r a schedule of test with the step bound bound: stopped
// there when it is less than the steps the test takes.
func longSteps(r *rt.Result, test string, bound int) {
	r.Steps = longStepsNeeded
	if test == "TestLongStepsMore" {
		r.Steps = 100 * longStepsNeeded
	}
	if bound > 0 && bound < r.Steps {
		r.Steps = bound
		r.Inconclusive = rt.StepBoundPrefix + fmt.Sprintf("no end after %d scheduling steps", bound)
	}
	r.Elapsed = time.Duration(r.Steps) * 20 * time.Microsecond
}

// replayDiverging replays a schedule of TestDivergeSame or TestDivergePass
// as a fresh process does: its first decision is "go"; a schedule recorded
// later in a search process ("Timer.Reset") diverges there. After the
// divergence TestDivergeSame fails as recorded and TestDivergePass passes.
func replayDiverging(cfg rt.Config, out *os.File) {
	i := cfg.First
	fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerStart, i)
	r := rt.Result{Index: i, Seed: cfg.Replay.Seed, Outcome: "pass", Decisions: []rt.Decision{{G: 0, Site: "x.go:1", Op: "go"}}, Steps: 1}
	if d := cfg.Replay.Decisions; len(d) == 0 || d[0].Op != "go" {
		r.Diverged = "decision 0: expected g0 at x.go:1 (Timer.Reset), g0 is at x.go:1 (go)"
	}
	if cfg.Test == "TestDivergeSame" || r.Diverged == "" {
		r.Outcome, r.Message, r.Site = "test-failure", "test failed: read: reset", "/src/k/k_test.go:60"
	}
	line, _ := json.Marshal(r)
	out.Write(append(line, '\n'))
	fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerEnd, i)
}

// replayRefind replays a schedule of a TestRefind... test: one recorded
// as a process's first schedule (its first decision "go") fails as
// recorded; one recorded later diverges at its first decision and passes,
// unless it is TestRefindPrior's or TestRefindPriorNever's replayed after
// the schedules run before it (Prior), which then fails as recorded.
func replayRefind(cfg rt.Config, out *os.File) {
	// The schedules before it first, as recorded (indices from 0).
	for j, p := range cfg.Replay.Prior {
		fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerStart, j)
		line, _ := json.Marshal(rt.Result{Index: j, Seed: p.Seed, Outcome: "pass", Decisions: p.Decisions, Steps: len(p.Decisions)})
		out.Write(append(line, '\n'))
		fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerEnd, j)
	}
	i := cfg.First + len(cfg.Replay.Prior)
	fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerStart, i)
	r := rt.Result{Index: i, Seed: cfg.Replay.Seed, Outcome: "pass", Decisions: []rt.Decision{{G: 0, Site: "x.go:1", Op: "go"}}, Steps: 1}
	if len(cfg.Replay.Prior) > 0 && strings.HasPrefix(cfg.Test, "TestRefindPrior") {
		r.Decisions = cfg.Replay.Decisions
		r.Outcome, r.Message, r.Site = "test-failure", "test failed: read: reset", "/src/k/k_test.go:60"
	} else if d := cfg.Replay.Decisions; len(d) == 0 || d[0].Op != "go" {
		r.Diverged = "decision 0: expected g0 at x.go:1 (Timer.Reset), g0 is at x.go:1 (go)"
	} else {
		r.Outcome, r.Message, r.Site = "test-failure", "test failed: read: reset", "/src/k/k_test.go:60"
	}
	line, _ := json.Marshal(r)
	out.Write(append(line, '\n'))
	fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerEnd, i)
}

// replayFlaky replays a schedule of TestReplayFlaky as one whose failure
// the schedule does not decide (real network timing): the first replay of
// a search reproduces it, the next passes, and so on (counted in the file
// FAKEBIN_REPLAYS names: every process runs in a directory of its own).
// TestReplayThenHang's first replay reproduces it and the next runs until
// it is stopped.
func replayFlaky(cfg rt.Config, out *os.File) {
	n := countReplay()
	i := cfg.First
	fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerStart, i)
	r := rt.Result{Index: i, Seed: cfg.Replay.Seed, Outcome: "pass", Decisions: cfg.Replay.Decisions, Steps: len(cfg.Replay.Decisions)}
	if n%2 == 0 {
		r.Outcome, r.Message, r.Site = "test-failure", "test failed: write: connection reset by peer", "/src/k/k_test.go:80"
	} else if cfg.Test == "TestReplayThenHang" {
		// Later replays run until the budget stops them.
		time.Sleep(time.Hour)
	}
	line, _ := json.Marshal(r)
	out.Write(append(line, '\n'))
	fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerEnd, i)
}

// replayShrinkable replays a schedule of TestShrinkable: it follows the
// decisions it is given and fails on every one, so that shrinking keeps
// the first with fewer preemptions. Each replay is counted in the file
// FAKEBIN_REPLAYS names.
func replayShrinkable(cfg rt.Config, out *os.File) {
	countReplay()
	writeReplay(out, rt.Result{Index: cfg.First, Seed: cfg.Replay.Seed, Outcome: "test-failure", Message: "test failed: lost update", Site: "/src/k/k_test.go:90",
		Decisions: cfg.Replay.Decisions, Steps: len(cfg.Replay.Decisions)})
}

// replayShrinkResync replays a schedule of TestShrinkResync, whose
// failure hangs on choices only: the schedule as found (four decisions,
// two preemptions) and a run's own decisions (marked by a last decision
// at own.go:1) replay to the failure. Any other, a shrinking try, leaves
// them at its second decision: the run goes on unperturbed and fails
// only when its selects keep their recorded cases (Schedule.Leave),
// recording its own decisions.
func replayShrinkResync(cfg rt.Config, out *os.File) {
	countReplay()
	ds := cfg.Replay.Decisions
	r := rt.Result{Index: cfg.First, Seed: cfg.Replay.Seed, Outcome: "test-failure", Message: "test failed: lost update", Site: "/src/k/k_test.go:90",
		Decisions: ds, Steps: len(ds)}
	found := len(ds) == 4 && ds[0].G == 0 && ds[1].G == 1 && ds[2].G == 0 && ds[3].G == 1
	if !found && ds[len(ds)-1].Site != "own.go:1" {
		r.Diverged = "decision 1: expected g0 at k.go:1 (atomic), g0 is at k.go:3 (atomic)"
		if !cfg.Replay.Leave {
			r.Outcome, r.Message, r.Site = "pass", "", ""
		}
		own := append([]rt.Decision(nil), ds...)
		own[len(own)-1].Site = "own.go:1"
		r.Decisions = own
	}
	writeReplay(out, r)
}

// replayShrinkCut replays a schedule of TestShrinkCut (20 decisions of
// g0 and 20 of g1), whose failure needs only g1 to run second. It
// follows the decisions it is given; given fewer (a cut, not a run's own
// decisions, whose last is at own.go:1), it leaves them at their end and
// goes on unperturbed: what is left of g0 runs, then what is left of g1.
// It fails when its decisions start g0, g1.
func replayShrinkCut(cfg rt.Config, out *os.File) {
	countReplay()
	ds := cfg.Replay.Decisions
	r := rt.Result{Index: cfg.First, Seed: cfg.Replay.Seed, Outcome: "pass", Decisions: ds, Steps: len(ds)}
	if len(ds) < 40 && (len(ds) == 0 || ds[len(ds)-1].Site != "own.go:1") {
		r.Diverged = fmt.Sprintf("decision %d: the schedule has only %d decisions", len(ds), len(ds))
		own := append([]rt.Decision(nil), ds...)
		left := map[int]int{0: 20, 1: 20}
		for _, d := range ds {
			left[d.G]--
		}
		for g := 0; g < 2; g++ {
			for ; left[g] > 0; left[g]-- {
				own = append(own, rt.Decision{G: g, Site: "k.go:99", Op: "atomic", Obj: 1})
			}
		}
		own[len(own)-1].Site = "own.go:1"
		r.Decisions, r.Steps = own, len(own)
	}
	if d := r.Decisions; len(d) >= 2 && d[0].G == 0 && d[1].G == 1 {
		r.Outcome, r.Message, r.Site = "test-failure", "test failed: lost update", "/src/k/k_test.go:90"
	}
	writeReplay(out, r)
}

// writeReplay writes r, a replay's one schedule, between its markers.
func writeReplay(out *os.File, r rt.Result) {
	fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerStart, r.Index)
	line, _ := json.Marshal(r)
	out.Write(append(line, '\n'))
	fmt.Fprintf(os.Stderr, "%s%d\n", rt.MarkerEnd, r.Index)
}

// countReplay counts this replay in the file FAKEBIN_REPLAYS names
// ("replays" by default) and returns how many came before it.
func countReplay() int {
	counter := os.Getenv("FAKEBIN_REPLAYS")
	if counter == "" {
		counter = "replays"
	}
	n, _ := os.ReadFile(counter)
	os.WriteFile(counter, append(n, 'x'), 0o644)
	return len(n)
}
