package rt

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestDeadlineCancelBeforeNextDecision: a context deadline's callback
// comes back to the scheduler only once the context is cancelled, however
// late the standard library's goroutine cancels it. The test holds the
// real timer back until the scheduler looks whether the callback's
// goroutine is outside control, and then until that goroutine waits for
// the cancel. Found blocked on ctx.Done() (before awaitCancel), it was
// taken for one outside control and the schedule went on with the context
// not yet done (TestEarlyMoveContextDeadline's replay, at load: "decision
// 6: recorded choice is not available").
func TestDeadlineCancelBeforeNextDecision(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	var (
		held    *time.Timer
		fired   bool
		pending int // decisions made while a held deadline had not fired
	)
	fire := func() {
		if held != nil && !fired {
			fired = true
			held.Reset(0)
		}
	}
	fireDeadline = func(real *time.Timer) { held, fired = real, false }
	beforeOutsideLook = func(g *gstate) {
		if g.cbOf == nil || !g.cbOf.ctx || held == nil || fired {
			return
		}
		// Wait (however long) until it waits for the cancel. Blocked on
		// ctx.Done(), it is left held: the scheduler must not go on
		// without it (beforeDecision counts it if it does).
		for {
			switch waitsForCancel(g.gid) {
			case "yielding":
				fire()
				return
			case "blocked":
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	beforeDecision = func() {
		if held != nil && !fired {
			pending++
			fire()
		}
	}
	t.Cleanup(func() {
		fireDeadline = func(real *time.Timer) { real.Reset(0) }
		beforeOutsideLook, beforeDecision = nil, nil
	})
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 10 * time.Second}, func(t *testing.T) {
		ctx, cancel := WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		Recv(ctx.Done()) // nothing else can run: the clock moves to the deadline
	}, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("want one passing schedule, got %+v", rs)
	}
	if held == nil {
		t.Fatal("the deadline never fired")
	}
	if pending > 0 {
		t.Errorf("%d decisions made while the deadline's callback waited for the context's cancel", pending)
	}
}

// waitsForCancel tells how the goroutine with runtime id gid waits for a
// context's cancel: "blocked" on a channel, "yielding" in awaitCancel, or
// "" (not yet waiting).
func waitsForCancel(gid uint64) string {
	buf := make([]byte, 1<<20)
	dump := string(buf[:runtime.Stack(buf, true)])
	for _, block := range strings.Split(dump, "\n\n") {
		if !strings.HasPrefix(block, "goroutine "+strconv.FormatUint(gid, 10)+" [") {
			continue
		}
		switch {
		case strings.HasPrefix(block[strings.Index(block, "[")+1:], "chan receive"):
			return "blocked"
		case strings.Contains(block, "rt.awaitCancel("):
			return "yielding"
		}
	}
	return ""
}
