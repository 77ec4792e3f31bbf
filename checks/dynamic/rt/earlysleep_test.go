package rt

import (
	"os"
	"sync"
	"testing"
	"time"
)

// sweeper is ttlcache v3.4.0's Start and Stop (issue 185): Stop returns at
// once when Start has not yet marked the loop running, so a Stop that
// comes before the goroutine that runs Start leaves that loop running.
type sweeper struct {
	mu      sync.Mutex
	stopped bool
	stop    chan struct{}
}

func (w *sweeper) start() {
	Lock(&w.mu)
	if !w.stopped {
		Unlock(&w.mu)
		return
	}
	w.stopped = false
	Unlock(&w.mu)
	Recv(w.stop)
}

func (w *sweeper) halt() {
	Lock(&w.mu)
	defer Unlock(&w.mu)
	if w.stopped {
		return
	}
	Send(w.stop, struct{}{})
	w.stopped = true
}

// sleepThenStop is the tests' idiom: start the loop in a goroutine, sleep
// "long enough" for it to start, stop it.
func sleepThenStop(*testing.T) {
	w := &sweeper{stopped: true, stop: make(chan struct{})}
	Go(w.start)
	Sleep(90 * time.Millisecond)
	w.halt()
}

// TestEarlySleep: a sleep ended only when no goroutine could run, so the
// goroutine started before it always ran first and the Stop-before-Start
// leak was never seen. With EarlySleep (pr's) the clock may jump to a
// sleeper's wake-up before goroutines that could run (a loaded machine
// delays them past it): the leak is found, and it replays.
func TestEarlySleep(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	for _, r := range RunSchedules(t, Config{Schedules: 300, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}, sleepThenStop, nil) {
		if r.Outcome != "pass" {
			t.Fatalf("without EarlySleep, schedule %d: %s: %s", r.Index, r.Outcome, r.Message)
		}
	}
	cfg := Config{Schedules: 300, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second, EarlySleep: true}
	var found *Result
	for _, r := range RunSchedules(t, cfg, sleepThenStop, nil) {
		if r.Outcome == "leak" {
			found = &r
			break
		}
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s: %s", r.Index, r.Outcome, r.Message)
		}
	}
	if found == nil {
		t.Fatal("no schedule ended the sleep before the goroutine ran: the leak was not found")
	}
	early := false
	for _, d := range found.Decisions {
		early = early || d.Early
	}
	if !early {
		t.Errorf("the leak's decisions %+v say no early jump", found.Decisions)
	}
	sched := &Schedule{Seed: found.Seed, Decisions: found.Decisions}
	rs := RunSchedules(t, Config{Replay: sched, StepTimeout: 10 * time.Second}, sleepThenStop, nil)
	if len(rs) != 1 || rs[0].Outcome != "leak" || rs[0].Diverged != "" {
		t.Errorf("replay: %+v, want the leak as recorded", rs)
	}
}

// TestEarlySleepAimed: in pr the search aims at the changed lines
// (Targets); an early jump while a goroutine that could run is parked at
// one delays exactly the code the change touched, so it is tried more
// often there (earlyOddsFor) than the 1 in 16 elsewhere.
func TestEarlySleepAimed(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	leaks := func(targets []string) int {
		n := 0
		cfg := Config{Schedules: 40, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second, EarlySleep: true, Targets: targets}
		for _, r := range RunSchedules(t, cfg, sleepThenStop, nil) {
			if r.Outcome == "leak" {
				n++
			}
		}
		return n
	}
	plain, aimed := leaks(nil), leaks([]string{"earlysleep_test.go:20"}) // start's Lock
	if aimed < 2*plain || aimed == 0 {
		t.Errorf("leaks in 40 schedules: %d aimed at start's lock, %d not aimed; want at least twice as many aimed", aimed, plain)
	}
}

// sleepThenStopInBubble is sleepThenStop inside a synctest bubble.
func sleepThenStopInBubble(t *testing.T) { SynctestTest(t, sleepThenStop) }

// TestEarlySleepBubble: in a synctest bubble the clock moves only when
// every goroutine in it is blocked, so no sleep ends and no timer fires
// early there (workerpool's pacer test, sleeping inside synctest.Test,
// got a tool-made "send on closed channel" so): 300 schedules with
// EarlySleep and KeepEarly all pass, and none moves the clock early.
func TestEarlySleepBubble(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	for _, cfg := range []Config{
		{Schedules: 300, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second, EarlySleep: true},
		{Schedules: 300, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second, KeepEarly: true},
	} {
		for _, r := range RunSchedules(t, cfg, sleepThenStopInBubble, nil) {
			if r.Outcome != "pass" {
				t.Fatalf("early sleep %v, keep early %v: schedule %d: %s: %s", cfg.EarlySleep, cfg.KeepEarly, r.Index, r.Outcome, r.Message)
			}
			for _, d := range r.Decisions {
				if d.Early {
					t.Fatalf("schedule %d moved the clock early in a bubble", r.Index)
				}
			}
		}
	}
}
