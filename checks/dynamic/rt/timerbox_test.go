package rt

import (
	"testing"
	"time"
)

// A timer made under control outlives its schedule (kept in a pool, as
// yamux's timerPool does): a later schedule and code outside control go on
// using it with Reset, Stop and C.
func TestVirtualTimerEscapes(t *testing.T) {
	var kept *time.Timer
	var fired []string
	use := func(t *testing.T, who string) {
		TimerReset(kept, time.Millisecond)
		k := Select(false, RecvCase(kept.C))
		//lint:ignore S1000 the rewriter's form of a one-case select
		select {
		case <-PickRecv(k, 0, kept.C):
			fired = append(fired, who)
		}
		if TimerStop(kept) {
			t.Errorf("%s: Stop after firing reported an active timer", who)
		}
	}
	cfg := Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}
	rs := RunSchedules(t, cfg, func(t *testing.T) {
		kept = NewTimer(time.Hour)
		if !TimerStop(kept) {
			t.Errorf("Stop of a new timer reported an inactive one")
		}
		use(t, "maker")
	}, nil)
	// Outside control: a real timer does the firing.
	use(t, "outside")
	if TimerReset(kept, time.Hour) {
		t.Errorf("Reset of a stopped timer reported an active one")
	}
	if !TimerStop(kept) {
		t.Errorf("Stop of an armed timer reported an inactive one")
	}
	// A later schedule adopts it onto its own clock.
	rs = append(rs, RunSchedules(t, cfg, func(t *testing.T) {
		start := Now()
		use(t, "later")
		if d := Since(start); !nearly(d, time.Millisecond) {
			t.Errorf("fired after %v of virtual time, want 1ms", d)
		}
	}, nil)...)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
	if len(fired) != 3 {
		t.Errorf("fired for %v, want maker, outside, later", fired)
	}
}
