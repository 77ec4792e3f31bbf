package rt

import (
	"os"
	"testing"
	"time"
)

// earlyMoves returns r's EarlyMoves, checking that each comes before an
// early decision.
func earlyMoves(t *testing.T, r Result) []EarlyMove {
	t.Helper()
	for _, mv := range r.EarlyMoves {
		if mv.Step >= len(r.Decisions) || !r.Decisions[mv.Step].Early {
			t.Errorf("move before decision %d, which is not early: %+v", mv.Step, r.Decisions)
		}
	}
	return r.EarlyMoves
}

// TestEarlyMoveSleep: an early move's record says which sleep it ended (site, duration) and which goroutine could still run (the
// loop's start), in the search and again in the replay.
func TestEarlyMoveSleep(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	cfg := Config{Schedules: 300, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second, EarlySleep: true}
	var found *Result
	for _, r := range RunSchedules(t, cfg, sleepThenStop, nil) {
		if r.Outcome == "leak" {
			found = &r
			break
		}
	}
	if found == nil {
		t.Fatal("the leak was not found")
	}
	check := func(who string, r Result) {
		t.Helper()
		mvs := earlyMoves(t, r)
		if len(mvs) == 0 {
			t.Fatalf("%s: no early decision tells its move: %+v", who, r.Decisions)
		}
		mv := mvs[0]
		if len(mv.Ended) != 1 || mv.Ended[0].Op != "time.Sleep" || mv.Ended[0].Site != "earlysleep_test.go:45" || mv.Ended[0].D != 90*time.Millisecond || mv.Ended[0].G != 0 {
			t.Errorf("%s: ended %+v, want g0's time.Sleep(90ms) at earlysleep_test.go:45", who, mv.Ended)
		}
		if len(mv.Passed) != 1 || mv.Passed[0].G != 1 || mv.Passed[0].Op != "start" {
			t.Errorf("%s: passed over %+v, want g1 at its start", who, mv.Passed)
		}
		if mv.By <= 0 || mv.By > 90*time.Millisecond+time.Millisecond {
			t.Errorf("%s: moved by %v", who, mv.By)
		}
	}
	check("search", *found)
	sched := &Schedule{Seed: found.Seed, Decisions: found.Decisions}
	rs := RunSchedules(t, Config{Replay: sched, StepTimeout: 10 * time.Second}, sleepThenStop, nil)
	if len(rs) != 1 || rs[0].Outcome != "leak" || rs[0].Diverged != "" {
		t.Fatalf("replay: %+v, want the leak as recorded", rs)
	}
	check("replay", rs[0])
}

// TestEarlyMoveTimer: an early timer's move names the timer (made at
// its NewTimer, 50ms), the goroutine whose select it ended, and the
// worker that could still send.
func TestEarlyMoveTimer(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	cfg := Config{Schedules: 300, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}
	var found *Result
	for _, r := range RunSchedules(t, cfg, func(t *testing.T) { awaitDrain(t, false) }, nil) {
		if r.Outcome == "deadlock" {
			found = &r
			break
		}
	}
	if found == nil {
		t.Fatal("the drain's deadlock was not found")
	}
	mvs := earlyMoves(t, *found)
	if len(mvs) == 0 {
		t.Fatalf("no early decision tells its move: %+v", found.Decisions)
	}
	mv := mvs[0]
	if len(mv.Ended) != 1 || mv.Ended[0].Op != "timer" || mv.Ended[0].G != 0 || mv.Ended[0].Site != "earlytimer_test.go:18" || mv.Ended[0].Armed != "earlytimer_test.go:17" || mv.Ended[0].D != 50*time.Millisecond {
		t.Errorf("ended %+v, want g0's select at earlytimer_test.go:18 on the 50ms timer made at :17", mv.Ended)
	}
	if len(mv.Passed) != 1 || mv.Passed[0].G != 1 || mv.Passed[0].Site != "earlytimer_test.go:16" {
		t.Errorf("passed over %+v, want g1 at its send (earlytimer_test.go:16)", mv.Passed)
	}
}

// TestEarlyMoveNone: a schedule without an early move tells none.
func TestEarlyMoveNone(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	for _, r := range RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 10 * time.Second, EarlySleep: true}, sleepThenStop, nil) {
		for i, d := range r.Decisions {
			if d.Early {
				t.Errorf("unperturbed decision %d: %+v", i, d)
			}
		}
		if len(r.EarlyMoves) > 0 {
			t.Errorf("unperturbed schedule: early moves %+v", r.EarlyMoves)
		}
	}
}
