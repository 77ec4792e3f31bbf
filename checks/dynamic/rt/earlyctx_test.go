package rt

import (
	"context"
	"os"
	"testing"
	"time"
)

// ctxDeadlineWait waits for a worker's result or the context's deadline,
// whichever comes first; the deadline coming first is a crash.
func ctxDeadlineWait(t *testing.T) {
	out := make(chan int, 1)
	ctx, cancel := WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	Go(func() { Send(out, 7) })
	if k := Select(false, RecvCase(out), RecvCase(ctx.Done())); k == 1 {
		panic("timed out before the worker sent")
	}
}

// TestEarlyMoveContextDeadline: an early move that fires a context's
// deadline names it as such, with the line of its WithTimeout, not as an
// AfterFunc (the virtual timer rt's withDeadline arms), in the search
// and again in the replay.
func TestEarlyMoveContextDeadline(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	cfg := Config{Schedules: 300, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}
	var found *Result
	for _, r := range RunSchedules(t, cfg, ctxDeadlineWait, nil) {
		if len(r.EarlyMoves) > 0 {
			found = &r
			break
		}
	}
	if found == nil {
		t.Fatal("no schedule moved the clock early to the deadline")
	}
	check := func(who string, r Result) {
		t.Helper()
		mvs := earlyMoves(t, r)
		if len(mvs) == 0 {
			t.Fatalf("%s: no early move: %+v", who, r.Decisions)
		}
		ended := mvs[0].Ended
		if len(ended) != 1 || ended[0].Op != "context deadline" || ended[0].Armed != "earlyctx_test.go:14" || ended[0].D != 100*time.Millisecond {
			t.Errorf("%s: ended %+v, want the 100ms context deadline armed at earlyctx_test.go:14", who, ended)
		}
	}
	check("search", *found)
	sched := &Schedule{Seed: found.Seed, Decisions: found.Decisions}
	rs := RunSchedules(t, Config{Replay: sched, StepTimeout: 10 * time.Second}, ctxDeadlineWait, nil)
	if len(rs) != 1 || rs[0].Outcome != found.Outcome || rs[0].Diverged != "" {
		t.Fatalf("replay: %+v, want %s as recorded", rs, found.Outcome)
	}
	check("replay", rs[0])
}
