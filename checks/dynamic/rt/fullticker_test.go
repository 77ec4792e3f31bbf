package rt

import (
	"testing"
	"time"
)

// TestSleepBesideUnreadTicker: a ticker nobody receives from (its goroutine
// returned without Stop: httprc v3.0.6's backend loop after a 1 ns
// SetTickInterval) keeps no sleeper from waking. Its channel holds one
// tick, the rest are dropped, as the runtime drops them; before, each
// dropped tick was a move of the clock that woke nobody, and after 1,000
// of them the sleeping test was reported deadlocked.
func TestSleepBesideUnreadTicker(t *testing.T) {
	t.Parallel()
	for seed := int64(1); seed <= 3; seed++ {
		r := RunFunc(Config{Seed: seed, StepTimeout: 5 * time.Second}, 0, func() {
			NewTicker(time.Nanosecond)
			start := Now()
			Sleep(time.Second)
			if d := Since(start); d < time.Second {
				panic("slept " + d.String())
			}
		})
		if r.Outcome != "pass" {
			t.Errorf("seed %d: outcome %s %q, want pass", seed, r.Outcome, r.Message)
		}
	}
}

// TestTickerResumesAfterDroppedTicks: once its channel is read again, a
// ticker whose ticks were dropped while nobody read it (its deadline
// skipped to a sleeper's, 200 ms ahead) ticks on its period again; while
// its tick stays unread, it keeps the skipped deadline.
func TestTickerResumesAfterDroppedTicks(t *testing.T) {
	t.Parallel()
	ms := time.Millisecond
	vt := &vtimer{kind: tkTicker, active: true, ch: make(chan time.Time, 1), period: 10 * ms, deadline: 200 * ms}
	s := &sched{now: 25 * ms, skipped: []*vtimer{vt}}
	vt.ch <- time.Time{}
	s.resumeTickers()
	if vt.deadline != 200*ms || len(s.skipped) != 1 {
		t.Errorf("unread: deadline %v, %d skipped; want 200ms, 1", vt.deadline, len(s.skipped))
	}
	<-vt.ch
	s.resumeTickers()
	if vt.deadline != 30*ms || len(s.skipped) != 0 {
		t.Errorf("read: deadline %v, %d skipped; want 30ms (its period), 0", vt.deadline, len(s.skipped))
	}
}
