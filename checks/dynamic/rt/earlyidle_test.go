package rt

import (
	"context"
	"os"
	"testing"
	"time"
)

// idleThenEarly: a worker waits for a 30ms timer (or the context's 50ms
// deadline) before it hands the test its result; the test waits for it
// up to 100ms. Nothing can run until the 30ms timer fires (an idle move);
// a schedule may then move the clock early to the deadline before the
// worker runs on (pipeline's TestProcessBatch: a batch processor's timer,
// the subtest's context, its one-second timeout).
func idleThenEarly(t *testing.T) {
	ctx, cancel := WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	out := make(chan int, 1) // the worker never stays blocked
	Go(func() {
		Select(false, RecvCase(ctx.Done()), RecvCase(After(30*time.Millisecond)))
		Send(out, 1)
	})
	if Select(false, RecvCase(After(100*time.Millisecond)), RecvCase(out)) == 0 {
		panic("timed out before the worker sent")
	}
}

// TestReplayEarlyAfterIdleMove: a replay moves its clock to where the
// recording's early move took it (Decision.Clock) before the decision, so
// the idle move of that step fires what the early move fired; the early
// move is then done, and must not move the clock on to the next deadline
// (the test's 100ms timeout); and the selects a move commits are judged
// from the clock before the replay moved it, as the recording judged them.
func TestReplayEarlyAfterIdleMove(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	// Seed 237's schedule moves early right after an idle move (its
	// replay moved on to the 100ms timeout: "decision 9: expected g0 at
	// …:27 (Timer.Stop), g0 is at …:24 (select)"); seed 343's commits the
	// worker's select when the clock moves (its replay, judging from the
	// moved clock, committed it to another case: "decision 6: recorded
	// choice is not available").
	for _, seed := range []int64{237, 343} {
		cfg := Config{Schedules: 1, Seed: seed, Strategy: "random", EarlySleep: true, StepTimeout: 10 * time.Second}
		r := RunSchedules(t, cfg, idleThenEarly, nil)[0]
		early := false
		for _, d := range r.Decisions {
			early = early || d.Early && d.Clock != 0
		}
		if !early || r.Outcome != "pass" {
			t.Fatalf("seed %d: %s with no early move recorded (the strategy changed?): pick seeds that move early", seed, r.Outcome)
		}
		sched := &Schedule{Seed: r.Seed, Decisions: r.Decisions}
		rs := RunSchedules(t, Config{Replay: sched, StepTimeout: 10 * time.Second}, idleThenEarly, nil)
		if len(rs) != 1 || rs[0].Outcome != r.Outcome || rs[0].Diverged != "" {
			t.Errorf("replay of seed %d: %s %q, diverged %q; recorded %s with %+v", r.Seed, rs[0].Outcome, rs[0].Message, rs[0].Diverged, r.Outcome, r.Decisions)
		}
	}
}
