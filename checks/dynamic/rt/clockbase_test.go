package rt

import (
	"testing"
	"time"
)

// TestReplayClockFraction: a replay's virtual clock starts at the fraction
// of a second the recorded schedule's did, so a test whose outcome depends
// on where a whole second falls (a job due every second, robfig/cron's
// TestJobWithZeroTimeDoesNotRun) replays the same way.
func TestReplayClockFraction(t *testing.T) {
	var seen time.Time
	body := func(t *testing.T) {
		done := make(chan struct{})
		Go(func() {
			Sleep(10 * time.Millisecond)
			Close(done)
		})
		seen = Now()
		Recv(done)
	}
	cfg := Config{StepTimeout: 5 * time.Second}
	rec := RunSchedule(t, cfg, 0, nil, nil, body)
	if rec.Outcome != "pass" || rec.ClockBase.IsZero() {
		t.Fatalf("recording: %+v", rec)
	}
	first := seen
	// A base 0.3 s into a second, whatever the wall clock says now.
	base := rec.ClockBase.Truncate(time.Second).Add(300 * time.Millisecond)
	sch := &Schedule{Version: ScheduleVersion, Test: "fraction", Decisions: rec.Decisions, ClockBase: base}
	for i := 0; i < 3; i++ {
		r := RunSchedule(t, cfg, 0, nil, sch, body)
		if r.Outcome != "pass" || r.Diverged != "" {
			t.Fatalf("replay %d: %+v", i, r)
		}
		if got := seen.Sub(seen.Truncate(time.Second)); got < 300*time.Millisecond || got > 300*time.Millisecond+time.Microsecond {
			t.Errorf("replay %d: the clock read %v into its second, want the recorded base's 300ms (first run read %v)", i, got, first)
		}
		if d := time.Until(r.ClockBase); d > time.Second {
			t.Errorf("replay %d: clock base %v ahead of the wall clock, want less than a second", i, d)
		}
	}
}

func TestSameFraction(t *testing.T) {
	now := time.Date(2026, 11, 29, 8, 0, 0, 700_000_000, time.UTC)
	for _, c := range []struct {
		rec  time.Time
		want time.Time
	}{
		{time.Date(2020, 1, 1, 0, 0, 0, 900_000_000, time.UTC), time.Date(2026, 11, 29, 8, 0, 0, 900_000_000, time.UTC)},
		{time.Date(2020, 1, 1, 0, 0, 0, 100_000_000, time.UTC), time.Date(2026, 11, 29, 8, 0, 1, 100_000_000, time.UTC)},
		{time.Date(2020, 1, 1, 0, 0, 0, 700_000_000, time.UTC), now},
	} {
		if got := sameFraction(now, c.rec); !got.Equal(c.want) {
			t.Errorf("sameFraction(%v, %v) = %v, want %v", now, c.rec, got, c.want)
		}
	}
}
