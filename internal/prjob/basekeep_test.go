package prjob

import (
	"testing"
	"time"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// TestBaseKeepFollowsCost: what the search keeps for the base commit once
// it found failures follows what their base check costs, at most a
// quarter of -budget. logrus-relock's one pre-existing failure (a test of
// a few milliseconds) had 30s kept of -budget 2m, the base check took
// 0.5s, and the run ended 33.5% under budget. Fails with the fixed
// quarter (KeepAfter: baseKeep): 30s asked for every cost.
func TestBaseKeepFollowsCost(t *testing.T) {
	c := &affected.Change{MergeBase: "0123456789abcdef", Base: "main"}
	r := &job{opts: &Options{Config: Config{Budget: 2 * time.Minute}}, change: c}
	r.givenBudget = r.opts.Budget
	for _, tc := range []struct {
		costs []time.Duration
		want  time.Duration
	}{
		{[]time.Duration{5 * time.Millisecond}, 5*time.Millisecond + 300*time.Millisecond + time.Second},
		{[]time.Duration{200 * time.Millisecond, 5 * time.Millisecond}, explore.BaseCost([]time.Duration{200 * time.Millisecond}) + explore.BaseCost([]time.Duration{5 * time.Millisecond})},
		{[]time.Duration{time.Second, time.Second}, 2 * (time.Second + 300*time.Millisecond + 3*time.Second)},
		{[]time.Duration{5 * time.Second, 5 * time.Second}, 30 * time.Second}, // capped at a quarter of -budget
	} {
		if got := r.baseKeepFor(tc.costs); got != tc.want {
			t.Errorf("kept for failures costing %v: %v, want %v", tc.costs, got, tc.want)
		}
	}
	// Without a base commit nothing is kept.
	r.change = &affected.Change{}
	if got := r.baseKeepFor([]time.Duration{time.Second}); got != 0 {
		t.Errorf("kept %v without a base commit, want 0", got)
	}
}
