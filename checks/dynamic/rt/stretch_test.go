package rt

import (
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// workUntil is a stress test's worker: it takes a lock until d has
// passed since it started (time.Since), then sends on done.
func workUntil(d time.Duration, mu *sync.Mutex, done chan bool) {
	start := Now()
	for Since(start) < d {
		Lock(mu)
		Unlock(mu)
	}
	Send(done, true)
}

// TestStretchEndsWorkLoop: two workers that take a lock until a second has
// passed end within the step bound (the clock stretched, not 20 ns per
// read; a timer due on the way fires), and a schedule replays with the same decisions when it says it
// was stretched (Schedule.Stretch); without, its replay does not stretch.
func TestStretchEndsWorkLoop(t *testing.T) {
	body := func(*testing.T) {
		var fired atomic.Bool
		AfterFunc(300*time.Millisecond, func() { fired.Store(true) }) // due on the way
		var mu sync.Mutex
		done := make(chan bool, 2)
		Go(func() { workUntil(time.Second, &mu, done) })
		Go(func() { workUntil(time.Second, &mu, done) })
		Recv(done)
		Recv(done)
		if !fired.Load() {
			panic("the timer due on the way did not fire")
		}
	}
	var rs []Result
	t.Run("search", func(t *testing.T) {
		rs = RunSchedules(t, Config{Strategy: "random", Seed: 1, Schedules: 10, MaxSteps: 20000, StepTimeout: 5 * time.Second}, body, nil)
	})
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" || r.Virtual < time.Second || !r.Stretched {
			t.Fatalf("schedule %d: %s %q after %d steps, clock %v: want a pass after a second", r.Index, r.Outcome, r.Inconclusive+r.Message, r.Steps, r.Virtual)
		}
	}
	last := rs[len(rs)-1]
	sch := &Schedule{Version: ScheduleVersionStretch, Seed: last.Seed, Decisions: last.Decisions, Stretch: true}
	var r Result
	t.Run("replay", func(t *testing.T) {
		r = RunSchedule(t, Config{Strategy: "random", MaxSteps: 20000, StepTimeout: 5 * time.Second}, 0, nil, sch, body)
	})
	if r.Outcome != "pass" || r.Diverged != "" || !reflect.DeepEqual(r.Decisions, last.Decisions) || r.Virtual != last.Virtual {
		t.Errorf("replay: %s (diverged %q, %d decisions, clock %v), want a pass with the %d recorded decisions, clock %v", r.Outcome, r.Diverged, len(r.Decisions), r.Virtual, len(last.Decisions), last.Virtual)
	}
	old := *sch
	old.Stretch = false
	t.Run("replay unstretched", func(t *testing.T) {
		r = RunSchedule(t, Config{Strategy: "random", MaxSteps: 20000, StepTimeout: 5 * time.Second}, 0, nil, &old, body)
	})
	if r.Diverged == "" || r.Stretched {
		t.Errorf("replay without Stretch: diverged %q, stretched %v, want a divergence without a stretch", r.Diverged, r.Stretched)
	}
}

// TestStretchFailureInconclusive: once a stretched read took the clock to
// a deadline only a data race counts (the failure may be the test's own
// timeout come sooner); a failure with no deadline reached so is kept, as
// is one after a loop too short to be stretched, and a loop the test left
// running after it returned (a leak).
func TestStretchFailureInconclusive(t *testing.T) {
	failAfter := func(d time.Duration, timeout bool) func() {
		return func() {
			var timedOut atomic.Bool
			if timeout {
				AfterFunc(d/2, func() { timedOut.Store(true) })
			}
			var mu sync.Mutex
			done := make(chan bool, 1)
			Go(func() { workUntil(d, &mu, done) })
			workUntil(d, &mu, make(chan bool, 1))
			Recv(done)
			if timedOut.Load() {
				panic("timed out")
			}
			panic("failed after the loop")
		}
	}
	cases := []struct {
		name    string
		body    func()
		outcome string
		inconcl string
	}{
		{"stretched to a deadline", failAfter(time.Second, true), "pass", StretchFailPrefix},
		{"stretched", failAfter(time.Second, false), "panic", ""},
		{"short", failAfter(time.Microsecond, false), "panic", ""},
		{"left running", func() {
			// The worker's reads alone move the clock from before the
			// test returns (about 2,800 decisions) to past stretchAfter
			// after it: the leak is told, not stretched away.
			var mu sync.Mutex
			Go(func() { workUntil(time.Hour, &mu, make(chan bool, 1)) })
			for i := 0; i < 700; i++ {
				Lock(&mu)
				Unlock(&mu)
			}
		}, "leak", ""},
	}
	for _, c := range cases {
		// The unperturbed schedule: no early move of the clock fires the
		// timer first (earlyTime), the stretch does.
		r := RunFunc(Config{Strategy: PlainStrategy, Seed: 1, MaxSteps: 20000, StepTimeout: 5 * time.Second}, 0, c.body)
		if r.Outcome != c.outcome || !strings.HasPrefix(r.Inconclusive, c.inconcl) || (c.inconcl == "") != (r.Inconclusive == "") {
			t.Errorf("%s: %s %q (inconclusive %q) after %d steps, want %s %q", c.name, r.Outcome, r.Message, r.Inconclusive, r.Steps, c.outcome, c.inconcl)
		}
	}
}
