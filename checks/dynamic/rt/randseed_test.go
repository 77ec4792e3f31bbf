package rt

import (
	"math/rand"
	randv2 "math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestClockSeedReplays: a generator seeded from the clock (NewSource of
// Now().UnixNano() or UnixMilli(), NewPCG of it) draws in a replay what it
// drew in the recording, though the replay's clock starts at another
// fraction of a second; a fixed seed keeps the standard generator's values,
// and so does a seed outside control.
func TestClockSeedReplays(t *testing.T) {
	var draws []int64
	body := func(t *testing.T) {
		draws = draws[:0]
		draws = append(draws, rand.New(NewSource(Now().UnixNano())).Int63())
		draws = append(draws, rand.New(NewSource(Now().UnixMilli())).Int63())
		draws = append(draws, int64(randv2.New(NewPCG(uint64(Now().UnixNano()), 1)).Uint64()>>1))
		if got, want := rand.New(NewSource(42)).Int63(), rand.New(rand.NewSource(42)).Int63(); got != want {
			t.Errorf("fixed seed 42: drew %d, want the standard generator's %d", got, want)
		}
		if got, want := randv2.New(NewPCG(1, 2)).Uint64(), randv2.New(randv2.NewPCG(1, 2)).Uint64(); got != want {
			t.Errorf("fixed PCG seeds: drew %d, want %d", got, want)
		}
	}
	cfg := Config{StepTimeout: 5 * time.Second}
	rec := RunSchedule(t, cfg, 0, nil, nil, body)
	if rec.Outcome != "pass" {
		t.Fatalf("recording: %+v", rec)
	}
	recorded := slices.Clone(draws)
	// The replay's clock starts 300 ms further into its second.
	sch := &Schedule{Version: ScheduleVersion, Test: "clockseed", Seed: rec.Seed, Decisions: rec.Decisions, ClockBase: rec.ClockBase.Add(300 * time.Millisecond)}
	again := RunSchedule(t, cfg, 0, nil, sch, body)
	if again.Outcome != "pass" || again.Diverged != "" {
		t.Fatalf("replay: %+v", again)
	}
	if !slices.Equal(draws, recorded) {
		t.Errorf("replay drew %v, the recording %v", draws, recorded)
	}
	// Outside control: the seed as given.
	seed := time.Now().UnixNano()
	if got, want := NewSource(seed).Int63(), rand.NewSource(seed).Int63(); got != want {
		t.Errorf("outside control: drew %d, want %d", got, want)
	}
}
