package rt

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// soloAdds adds 1 to x n times, each an atomic operation under control.
func soloAdds(x *int64, n int) {
	for i := 0; i < n; i++ {
		Then(Atomic(x), atomic.AddInt64(x, 1))
	}
}

// soloThenLostUpdate: a long stretch of atomics while the test's goroutine
// is alone, then two goroutines that increment with a load and a store,
// one of which waits for a third's long stretch of atomics alone (the
// other blocked on a receive): the count is wrong only when one runs
// between the other's load and store.
func soloThenLostUpdate(t *testing.T) {
	var x, n int64
	soloAdds(&x, 5000)
	ready := make(chan bool)
	done := make(chan bool, 2)
	Go(func() {
		Recv(ready)
		v := Then(AtomicLoad(&n), atomic.LoadInt64(&n))
		Then(Atomic(&n), 0)
		atomic.StoreInt64(&n, v+1)
		Send(done, true)
	})
	Go(func() {
		soloAdds(&x, 3000)
		Send(ready, true)
		v := Then(AtomicLoad(&n), atomic.LoadInt64(&n))
		Then(Atomic(&n), 0)
		atomic.StoreInt64(&n, v+1)
		Send(done, true)
	})
	Recv(done)
	Recv(done)
	if n != 2 {
		panic(fmt.Sprintf("lost update: n = %d, want 2", n))
	}
}

// TestSoloRun: atomics of a goroutine that is alone able to run take a
// decision once every soloRun (Decision.Solo), not each; a failing
// schedule with solo runs is found and replays with the same decisions.
func TestSoloRun(t *testing.T) {
	var rs []Result
	t.Run("search", func(t *testing.T) {
		rs = RunSchedules(t, Config{Strategy: "random", Seed: 1, Schedules: 300, StepTimeout: 5 * time.Second, StopOnFail: true}, soloThenLostUpdate, nil)
	})
	for _, r := range rs {
		// 8,000 atomics alone, about 30 decisions; the rest is a few dozen.
		if r.Steps > 200 {
			t.Fatalf("schedule %d took %d steps: the atomics alone were not run solo", r.Index, r.Steps)
		}
	}
	last := rs[len(rs)-1]
	if last.Outcome != "panic" {
		t.Fatalf("the lost update not found in %d schedules (%v)", len(rs), outcomes(rs))
	}
	solo := 0
	for _, d := range last.Decisions {
		if d.Solo {
			solo++
		}
	}
	if solo < 8000/soloRun {
		t.Errorf("%d solo decisions in the failing schedule, want at least %d", solo, 8000/soloRun)
	}
	sch := &Schedule{Version: ScheduleVersion, Seed: last.Seed, Decisions: last.Decisions}
	var r Result
	t.Run("replay", func(t *testing.T) {
		r = RunSchedule(t, Config{Strategy: "random", StepTimeout: 5 * time.Second}, 0, nil, sch, soloThenLostUpdate)
	})
	if r.Outcome != "panic" || r.Diverged != "" || !reflect.DeepEqual(r.Decisions, last.Decisions) {
		t.Errorf("replay: %s (diverged %q, %d decisions), want the panic with the %d recorded decisions", r.Outcome, r.Diverged, len(r.Decisions), len(last.Decisions))
	}
}

// TestSoloRunNotGranted: atomics take a decision each while another
// goroutine can run, while a timer is pending (the clock may move at any
// point), and after the test returned.
func TestSoloRunNotGranted(t *testing.T) {
	const n = 1000
	cases := []struct {
		name string
		body func()
	}{
		{"another goroutine can run", func() {
			var x, y int64
			done := make(chan bool)
			Go(func() { soloAdds(&y, n); Send(done, true) })
			soloAdds(&x, n)
			Recv(done)
		}},
		{"a timer pending", func() {
			var x int64
			tm := NewTimer(time.Hour)
			soloAdds(&x, n)
			TimerStop(tm)
		}},
		{"after the test returned", func() {
			var x int64
			Go(func() { soloAdds(&x, n) })
		}},
	}
	for _, c := range cases {
		r := RunFunc(Config{Strategy: "random", Seed: 1, StepTimeout: 5 * time.Second}, 0, c.body)
		if r.Outcome != "pass" {
			t.Fatalf("%s: %s %s", c.name, r.Outcome, r.Message)
		}
		if r.Steps < n {
			t.Errorf("%s: %d steps for %d atomics: run solo", c.name, r.Steps, n)
		}
	}
	r := RunFunc(Config{Strategy: "random", Seed: 1, StepTimeout: 5 * time.Second}, 0, func() {
		var x int64
		soloAdds(&x, n)
	})
	if r.Outcome != "pass" || r.Steps > n/soloRun+10 {
		t.Errorf("alone: %s, %d steps for %d atomics, want about %d", r.Outcome, r.Steps, n, n/soloRun)
	}
}

// soloAtTargetBody runs n atomics alone away from the target, then n at it.
func soloAtTargetBody(n int) {
	var x, y int64
	soloAdds(&x, n)
	// The target is more than TargetNear lines below the call above,
	// which is a frame of the atomics away from it.
	//
	for i := 0; i < n; i++ {
		Then(Atomic(&y), atomic.AddInt64(&y, 1)) // the target
	}
}

// soloTargetSite is the site of soloAtTargetBody's target line.
func soloTargetSite(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("solo_test.go")
	if err != nil {
		t.Fatal(err)
	}
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasSuffix(l, "// the target") {
			line = i + 1
		}
	}
	return "solo_test.go:" + strconv.Itoa(line)
}

// TestSoloRunAtTargets: with Config.Targets, atomics away from every
// target still run solo, and each at a target takes its decision and
// counts as a hit there.
func TestSoloRunAtTargets(t *testing.T) {
	target := soloTargetSite(t)
	const n = 2000
	r := RunFunc(Config{Strategy: "random", Seed: 1, StepTimeout: 5 * time.Second, Targets: []string{target}}, 0, func() { soloAtTargetBody(n) })
	if r.Outcome != "pass" {
		t.Fatalf("%s %s", r.Outcome, r.Message)
	}
	if r.Steps < n || r.Steps > n+n/soloRun+20 {
		t.Errorf("%d steps, want the %d at %s and about %d for the %d away from it", r.Steps, n, target, n/soloRun, n)
	}
	if r.TargetHits[target] != n {
		t.Errorf("hits %v, want %d at %s", r.TargetHits, n, target)
	}
}

// TestSoloRunAtTargetsReplays: a schedule recorded with Config.Targets,
// whose solo runs a target cut short (Decision.SoloRun), replays without
// them (a replay is given none) with the same decisions. Before, the
// replay ran solo through the target's atomics and left the schedule at
// the first decision there.
func TestSoloRunAtTargetsReplays(t *testing.T) {
	target := soloTargetSite(t)
	body := func(*testing.T) { soloAtTargetBody(300) }
	var rs []Result
	t.Run("record", func(t *testing.T) {
		rs = RunSchedules(t, Config{Strategy: "random", Seed: 1, Schedules: 1, StepTimeout: 5 * time.Second, Targets: []string{target}}, body, nil)
	})
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("recorded %v, want one pass", outcomes(rs))
	}
	rec := rs[0]
	cut := 0
	for _, d := range rec.Decisions {
		if d.SoloRun > 0 {
			cut++
		}
	}
	if rec.TargetHits[target] != 300 || cut == 0 {
		t.Fatalf("hits %v, %d solo runs cut, want 300 at %s and one cut", rec.TargetHits, cut, target)
	}
	sch := &Schedule{Version: ScheduleVersionSoloRun, Seed: rec.Seed, Decisions: rec.Decisions}
	var r Result
	t.Run("replay", func(t *testing.T) {
		r = RunSchedule(t, Config{Strategy: "random", StepTimeout: 5 * time.Second}, 0, nil, sch, body)
	})
	if r.Diverged != "" || !reflect.DeepEqual(r.Decisions, rec.Decisions) {
		t.Errorf("replay: %s (diverged %q, %d decisions), want the %d recorded decisions", r.Outcome, r.Diverged, len(r.Decisions), len(rec.Decisions))
	}
}
