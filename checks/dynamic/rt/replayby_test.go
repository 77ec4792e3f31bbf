package rt

import (
	"sync"
	"testing"
	"time"
)

// Once a schedule failed, a process starts no schedule whose failure's
// replays would not fit before Config.ReplayBy; before a failure, or when
// they fit, it runs on.
func TestReplayByStopsAfterFailure(t *testing.T) {
	cases := []struct {
		name   string
		by     time.Time
		failAt int // the run's failing schedule (-1: none)
		want   int
	}{
		{"past, failure", time.Now().Add(-time.Hour), 2, 3},
		{"past, no failure", time.Now().Add(-time.Hour), -1, 6},
		{"ahead, failure", time.Now().Add(time.Hour), 2, 6},
		{"unset, failure", time.Time{}, 2, 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := 0
			cfg := Config{Seed: 1, Schedules: 6, ReplayBy: c.by, ReplayTries: 2, StepTimeout: 5 * time.Second}
			rs := RunSchedules(t, cfg, func(t *testing.T) {
				var mu sync.Mutex
				mu.Lock()
				//lint:ignore SA2001 any body will do: the schedule is what counts
				mu.Unlock()
				n++
				if n-1 == c.failAt {
					panic("boom")
				}
			}, nil)
			if len(rs) != c.want {
				t.Fatalf("ran %d schedules, want %d", len(rs), c.want)
			}
		})
	}
}

func TestReplayFits(t *testing.T) {
	now := time.Now()
	by := now.Add(3 * time.Second)
	if !ReplayFits(by, 2, time.Second, now) {
		t.Error("3 x 1s before a ReplayBy 3s ahead: want fits")
	}
	if ReplayFits(by, 2, time.Second+time.Millisecond, now) {
		t.Error("3 x 1.001s before a ReplayBy 3s ahead: want does not fit")
	}
	if !ReplayFits(time.Time{}, 2, time.Hour, now) {
		t.Error("no ReplayBy: want fits")
	}
}
