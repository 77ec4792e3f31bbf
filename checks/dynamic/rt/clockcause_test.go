package rt

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"
)

// TestWithTimeoutCauseVirtual: context.WithTimeoutCause (rewritten to
// WithTimeoutCause) expires on the virtual clock, as WithTimeout does: a
// one-millisecond deadline comes before a one-second timer, on every
// schedule, with its cause. On the real clock the timer may come first
// (otel's PeriodicReader.Shutdown: a producer that waits for the timer or
// the context, whichever comes first).
func TestWithTimeoutCauseVirtual(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	errCause := errors.New("reader shutdown timeout")
	var bad []string
	for _, r := range RunSchedules(t, Config{Schedules: 20, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}, func(t *testing.T) {
		ctx, cancel := WithTimeoutCause(context.Background(), time.Millisecond, errCause)
		defer cancel()
		if dl, ok := ctx.Deadline(); !ok || dl.Sub(Now()) > time.Millisecond {
			t.Errorf("Deadline = %v, %v: want a millisecond from the virtual now", dl, ok)
		}
		tm := After(time.Second)
		k := Select(false, RecvCase(tm), RecvCase(ctx.Done()))
		select {
		case <-PickRecv(k, 0, tm):
			t.Error("the one-second timer came before the one-millisecond deadline")
		case <-PickRecv(k, 1, ctx.Done()):
			if context.Cause(ctx) != errCause {
				t.Errorf("Cause = %v, want %v", context.Cause(ctx), errCause)
			}
		}
		want := Now().Add(time.Hour)
		dctx, dcancel := WithDeadlineCause(context.Background(), want, errCause)
		defer dcancel()
		if dl, _ := dctx.Deadline(); !dl.Equal(want) {
			t.Errorf("WithDeadlineCause's deadline is %v, want %v (virtual)", dl, want)
		}
	}, nil) {
		if r.Outcome != "pass" {
			bad = append(bad, r.Outcome+": "+r.Message)
		}
	}
	if len(bad) > 0 {
		t.Errorf("%d schedules failed: %v", len(bad), bad)
	}
}
