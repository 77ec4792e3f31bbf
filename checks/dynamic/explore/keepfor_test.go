package explore

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestKeepForCauses: what the search keeps for the caller after it
// (Options.KeepFor) is asked with one cost per cause the report replays,
// not a fixed share: 12 leaks of one cause (1s tests) and a 200ms test's
// failure are two costs, and the reserve grows by what KeepFor returns
// (BaseCost: one replay and 3 schedules, a second at least, each).
// Nothing is asked before a failure is found.
func TestKeepForCauses(t *testing.T) {
	t.Parallel()
	var asked [][]time.Duration
	s := &search{opts: Options{Budget: 2 * time.Minute, KeepFor: func(costs []time.Duration) time.Duration {
		asked = append(asked, slices.Clone(costs))
		return BaseCost(costs)
	}}, failures: map[string]*failure{}, owners: map[string]*target{}}
	none := s.shrinkReserve()
	if len(asked) != 0 {
		t.Errorf("KeepFor asked %v before any failure", asked)
	}
	add := func(tg *target, f *failure) {
		k := tg.name + "|" + f.key()
		s.order = append(s.order, k)
		s.owners[k] = tg
		s.failures[k] = f
	}
	for i := range 12 {
		tg := &target{name: fmt.Sprintf("TestLeak%d", i), cost: time.Second, stats: &TestStats{Schedules: 2, Failures: 1}}
		add(tg, &failure{kind: checks.Leak, message: rt.LeakBlocked + ": g1 blocked on select at executor.go:46", site: "executor.go:46",
			goroutines: []checks.Goroutine{{ID: "g1", State: "select", Site: "executor.go:46"}}})
	}
	add(&target{name: "TestHook", cost: 200 * time.Millisecond, stats: &TestStats{Schedules: 3, Failures: 1}},
		&failure{kind: checks.Panic, message: "boom", site: "hook.go:9"})
	got := s.shrinkReserve()
	if len(asked) != 1 || !slices.Equal(asked[0], []time.Duration{time.Second, 200 * time.Millisecond}) {
		t.Fatalf("KeepFor asked %v, want one cost per cause [1s 200ms]", asked)
	}
	keep := BaseCost(asked[0])
	if want := (time.Second + processStartup + 3*time.Second) + (200*time.Millisecond + processStartup + time.Second); keep != want {
		t.Errorf("BaseCost %v, want %v", keep, want)
	}
	s.opts.KeepFor = nil
	if without := s.shrinkReserve(); got != without+keep || got <= none {
		t.Errorf("reserve %v, want %v (the replays' %v and KeepFor's %v)", got, without+keep, without, keep)
	}
}
