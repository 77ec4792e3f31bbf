package rt

import (
	"slices"
	"testing"
	"time"
)

// clockSeen is what clockReads saw.
type clockSeen struct {
	reads   []time.Duration // from the start
	expired bool            // the item with a nanosecond to live
	fired   time.Duration   // when the timer's value was received
}

// clockReads reads the clock from two goroutines: a stamp another
// goroutine read plus a nanosecond (an item given that long to live),
// then twenty reads with a timer pending, then the timer's value.
func clockReads(seen *clockSeen) func(t *testing.T) {
	return func(t *testing.T) {
		*seen = clockSeen{}
		tm := NewTimer(200 * time.Nanosecond)
		start := Now()
		done := make(chan time.Time)
		Go(func() {
			for i := 0; i < 3; i++ {
				Now()
			}
			Send(done, Now())
		})
		stamp := Recv(done)
		seen.expired = stamp.Add(time.Nanosecond).Before(Now())
		for i := 0; i < 20; i++ {
			seen.reads = append(seen.reads, Since(start))
		}
		Recv(tm.C)
		seen.fired = Since(start)
	}
}

// TestNowTick: under control each read of the clock moves it by NowTick,
// so an item given a nanosecond to live has expired when read again (not
// with a nanosecond per read), but not past a pending deadline: the timer
// fires no earlier; a replay reads the same times, and a schedule
// recorded with another step (LegacyNowTick, files before
// ScheduleVersionTick) replays with the step it was recorded with.
func TestNowTick(t *testing.T) {
	var seen clockSeen
	body := clockReads(&seen)
	var recorded []clockSeen
	rs := RunSchedules(t, Config{Schedules: 4, Seed: 3, Strategy: "random", StepTimeout: 5 * time.Second}, body, func(Result) bool {
		recorded = append(recorded, seen)
		return true
	})
	mustPass(t, rs)
	for i, r := range rs {
		got := recorded[i]
		if !got.expired {
			t.Errorf("seed %d: an item with a nanosecond to live has not expired when read again", r.Seed)
		}
		if d := got.reads[1] - got.reads[0]; d != NowTick {
			t.Errorf("seed %d: two reads %v apart, want NowTick (%v)", r.Seed, d, NowTick)
		}
		if last := got.reads[len(got.reads)-1]; last != 200*time.Nanosecond {
			t.Errorf("seed %d: 20 reads reached %v, want the timer's deadline (200ns) and no further", r.Seed, last)
		}
		if got.fired < 200*time.Nanosecond {
			t.Errorf("seed %d: the timer fired at %v, before its deadline", r.Seed, got.fired)
		}
		sch := &Schedule{Version: ScheduleVersion, Test: "reads", Seed: r.Seed, Decisions: r.Decisions}
		again := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, body)
		if again.Outcome != "pass" || again.Diverged != "" || !slices.Equal(seen.reads, got.reads) || seen.fired != got.fired {
			t.Fatalf("replay of seed %d: %s, diverged %q, reads %v then %v, want %v then %v", r.Seed, again.Outcome, again.Diverged, seen.reads, seen.fired, got.reads, got.fired)
		}
		// Recorded with a nanosecond per read: replayed so, the reads are
		// a nanosecond apart and the item has not expired, as when the
		// schedule was recorded.
		old := *sch
		old.NowTick = LegacyNowTick
		again = RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, &old, body)
		if again.Outcome != "pass" || again.Diverged != "" || seen.reads[1]-seen.reads[0] != LegacyNowTick || seen.expired {
			t.Errorf("replay of seed %d with a nanosecond per read: %s, diverged %q, reads %v apart, expired %v; want 1ns, not expired", r.Seed, again.Outcome, again.Diverged, seen.reads[1]-seen.reads[0], seen.expired)
		}
	}
}
