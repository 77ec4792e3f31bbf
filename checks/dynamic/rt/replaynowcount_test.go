package rt

import (
	"sync"
	"testing"
	"time"
)

// TestReplayCountedReads: a loop that reads the clock at one site 200
// times between two scheduling points makes its 65th, 130th and 195th
// reads scheduling points (nowSpins); a replay makes the same ones, not
// the first three (recordedNow matched every read at the site once, and
// the replay diverged after the loop: a cache's scan before a lost
// update, not reported).
func TestReplayCountedReads(t *testing.T) {
	body := func(t *testing.T) {
		var mu sync.Mutex
		stamps := make([]time.Time, 200)
		n := 0
		var wg sync.WaitGroup
		for w := 0; w < 2; w++ {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				Lock(&mu)
				for i := range stamps {
					stamps[i] = Now()
				}
				Unlock(&mu)
				Lock(&mu)
				v := n
				Unlock(&mu)
				Lock(&mu)
				n = v + 1
				Unlock(&mu)
			})
		}
		WaitGroupWait(&wg)
	}
	rs := explore(t, 5, body)
	for _, r := range rs {
		reads := 0
		for _, d := range r.Decisions {
			if d.Op == opNow.String() {
				reads++
				if d.NowOutside {
					t.Fatalf("seed %d: a read marked back from outside control in a test that never leaves it", r.Seed)
				}
			}
		}
		if reads != 6 {
			t.Fatalf("seed %d: %d reads were scheduling points, want 6 (3 of each goroutine's 200)", r.Seed, reads)
		}
		again := RunSchedules(t, Config{Replay: &Schedule{Seed: r.Seed, Decisions: r.Decisions}, StepTimeout: 5 * time.Second}, body, nil)
		if len(again) != 1 || again[0].Diverged != "" || len(again[0].Decisions) != len(r.Decisions) {
			t.Fatalf("seed %d: the replay of %d decisions: %+v", r.Seed, len(r.Decisions), again)
		}
	}
}
