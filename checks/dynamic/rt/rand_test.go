package rt

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// TestRandReplays: draws of MathRand and MathRandV2 (math/rand's
// top-level functions, rewritten) under control come from a stream the
// schedule's seed fixes: a replay of a schedule draws what the recording
// drew, in whichever goroutines drew them, and follows its decisions
// (here the draw decides how many goroutines there are), while schedules
// of other seeds draw other values. (go-pkgz/pool's Submit picks a
// worker with rand.Intn: its failing schedule replayed once in three.)
func TestRandReplays(t *testing.T) {
	var draws []int
	body := func(t *testing.T) {
		draws = draws[:0]
		var mu sync.Mutex
		var wg sync.WaitGroup
		n := 2 + MathRand.Intn(20)
		for i := 0; i < n; i++ {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				v := MathRandV2.IntN(1000) + int(RandN(uint8(10)))
				Lock(&mu)
				draws = append(draws, v)
				Unlock(&mu)
			})
		}
		WaitGroupWait(&wg)
	}
	cfg := Config{Schedules: 4, Seed: 7, Strategy: "random", StepTimeout: 5 * time.Second}
	var recorded [][]int
	rs := RunSchedules(t, cfg, body, func(Result) bool {
		recorded = append(recorded, slices.Clone(draws))
		return true
	})
	distinct := map[int]bool{}
	for i, r := range rs {
		distinct[len(recorded[i])] = true
		sch := &Schedule{Version: ScheduleVersion, Test: "draws", Seed: r.Seed, Decisions: r.Decisions}
		for k := 0; k < 2; k++ {
			again := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, body)
			if again.Diverged != "" || !slices.Equal(draws, recorded[i]) {
				t.Fatalf("replay %d of seed %d: diverged %q, drew %v, want %v", k, r.Seed, again.Diverged, draws, recorded[i])
			}
		}
	}
	if len(distinct) < 2 {
		t.Errorf("4 seeds drew the same number of goroutines: %v", recorded)
	}
	// Outside control: the standard library's generator.
	if v := MathRand.Intn(5); v < 0 || v >= 5 {
		t.Errorf("outside control: Intn(5) = %d", v)
	}
}
