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
	cc := func(replay ...time.Duration) []explore.CauseCost {
		var out []explore.CauseCost
		for _, d := range replay {
			out = append(out, explore.CauseCost{Replay: d})
		}
		return out
	}
	for _, tc := range []struct {
		costs []explore.CauseCost
		want  time.Duration
	}{
		{cc(5 * time.Millisecond), 5*time.Millisecond + 300*time.Millisecond + time.Second},
		{cc(200*time.Millisecond, 5*time.Millisecond), explore.BaseCost(cc(200*time.Millisecond)) + explore.BaseCost(cc(5*time.Millisecond))},
		{cc(time.Second, time.Second), 2 * (time.Second + 300*time.Millisecond + 3*time.Second)},
		{cc(5*time.Second, 5*time.Second), 30 * time.Second}, // capped at a quarter of -budget
		// A rare failure's search for its chances on the base.
		{[]explore.CauseCost{{Replay: 5 * time.Millisecond, Search: 12 * time.Second}}, 5*time.Millisecond + 300*time.Millisecond + 12*time.Second},
		{[]explore.CauseCost{{Replay: 5 * time.Millisecond, Search: time.Minute}}, 30 * time.Second},
		// One the kept time cannot hold even at twice the speed ends too
		// rare to compare: its replay and first schedules only.
		{[]explore.CauseCost{{Replay: 5 * time.Millisecond, Search: 94 * time.Second}}, 5*time.Millisecond + 300*time.Millisecond + time.Second},
		{[]explore.CauseCost{{Replay: 5 * time.Millisecond, Search: 94 * time.Second}, {Replay: 5 * time.Millisecond, Search: 12 * time.Second}},
			2*(5*time.Millisecond+300*time.Millisecond) + time.Second + 12*time.Second},
	} {
		if got := r.baseKeepFor(tc.costs); got != tc.want {
			t.Errorf("kept for failures costing %v: %v, want %v", tc.costs, got, tc.want)
		}
	}
	// Without a base commit nothing is kept.
	r.change = &affected.Change{}
	if got := r.baseKeepFor(cc(time.Second)); got != 0 {
		t.Errorf("kept %v without a base commit, want 0", got)
	}
}
