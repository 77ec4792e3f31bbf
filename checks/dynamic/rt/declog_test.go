package rt

import (
	"sync"
	"testing"
	"time"
)

func TestChunkLogAcrossChunks(t *testing.T) {
	var l chunkLog[int]
	for round := 0; round < 2; round++ { // the second reuses the chunks
		n := 3*chunkLen + 17 - round*chunkLen
		for i := 0; i < n; i++ {
			l.add(i * 7)
		}
		if l.len() != n {
			t.Fatalf("round %d: len %d, want %d", round, l.len(), n)
		}
		for _, i := range []int{0, chunkLen - 1, chunkLen, 2*chunkLen + 1, n - 1} {
			if got := *l.at(i); got != i*7 {
				t.Fatalf("round %d: at(%d) = %d, want %d", round, i, got, i*7)
			}
		}
		s := l.slice()
		if len(s) != n {
			t.Fatalf("round %d: slice has %d entries, want %d", round, len(s), n)
		}
		for i, v := range s {
			if v != i*7 {
				t.Fatalf("round %d: slice[%d] = %d, want %d", round, i, v, i*7)
			}
		}
		l.reset()
	}
	if len(l.chunks) != 4 {
		t.Errorf("%d chunks after a reset and a shorter round, want the 4 of the first", len(l.chunks))
	}
}

// A schedule longer than the room reserved at its start (DefaultMaxSteps)
// records every decision: its replay follows them to the same end.
func TestLongScheduleReplays(t *testing.T) {
	body := func(*testing.T) {
		var mu sync.Mutex
		var wg sync.WaitGroup
		for g := 0; g < 3; g++ {
			wg.Add(1)
			Go(func() {
				defer wg.Done()
				for i := 0; i < 6000; i++ {
					Lock(&mu)
					Unlock(&mu)
				}
			})
		}
		wg.Wait()
	}
	rs := RunSchedules(t, Config{Seed: 3, Schedules: 1, MaxSteps: 100000, StepTimeout: 5 * time.Second}, body, nil)
	if len(rs) != 1 {
		t.Fatalf("%d results, want 1", len(rs))
	}
	res := rs[0]
	if res.Outcome != "pass" || res.Inconclusive != "" {
		t.Fatalf("%s %s %s", res.Outcome, res.Inconclusive, res.Message)
	}
	if res.Steps <= decisionRoom(DefaultMaxSteps) || len(res.Decisions) != res.Steps {
		t.Fatalf("%d steps, %d decisions: want as many, more than the %d reserved", res.Steps, len(res.Decisions), decisionRoom(DefaultMaxSteps))
	}
	rr := RunSchedules(t, Config{Replay: &Schedule{Seed: res.Seed, Decisions: res.Decisions}, MaxSteps: 100000, StepTimeout: 5 * time.Second}, body, nil)
	if len(rr) != 1 {
		t.Fatalf("%d replay results, want 1", len(rr))
	}
	again := rr[0]
	if again.Diverged != "" || again.Steps != res.Steps {
		t.Fatalf("replay: %d steps of %d, diverged %q", again.Steps, res.Steps, again.Diverged)
	}
	for i := range res.Decisions {
		if a, b := res.Decisions[i], again.Decisions[i]; a.G != b.G || a.Op != b.Op || a.Site != b.Site {
			t.Fatalf("decision %d: %+v, replayed %+v", i, a, b)
		}
	}
}
