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
// (BaseCost: one replay and 3 schedules, a second at least, each). A
// cause that failed on 1 of its test's 100 schedules also asks for the
// search that gives the base commit its 1,909 chances at it, at the head's
// time per schedule. Nothing is asked before a failure is found.
func TestKeepForCauses(t *testing.T) {
	t.Parallel()
	var asked [][]CauseCost
	s := &search{opts: Options{Budget: 2 * time.Minute, KeepFor: func(causes []CauseCost) time.Duration {
		asked = append(asked, slices.Clone(causes))
		return BaseCost(causes)
	}}, failures: map[string]*failure{}, owners: map[string]*target{}}
	none := s.shrinkReserve()
	if len(asked) != 0 {
		t.Errorf("KeepFor asked %v before any failure", asked)
	}
	add := func(tg *target, f *failure) string {
		k := tg.name + "|" + f.key()
		s.order = append(s.order, k)
		s.owners[k] = tg
		s.failures[k] = f
		return k
	}
	for i := range 12 {
		tg := &target{name: fmt.Sprintf("TestLeak%d", i), cost: time.Second, stats: &TestStats{Schedules: 2, Failures: 1}}
		add(tg, &failure{kind: checks.Leak, message: rt.LeakBlocked + ": g1 blocked on select at executor.go:46", site: "executor.go:46",
			goroutines: []checks.Goroutine{{ID: "g1", State: "select", Site: "executor.go:46"}}})
	}
	add(&target{name: "TestHook", cost: 200 * time.Millisecond, stats: &TestStats{Schedules: 3, Failures: 1}},
		&failure{kind: checks.Panic, message: "boom", site: "hook.go:9"})
	got := s.shrinkReserve()
	if len(asked) != 1 || !slices.Equal(asked[0], []CauseCost{{Replay: time.Second}, {Replay: 200 * time.Millisecond}}) {
		t.Fatalf("KeepFor asked %v, want one cost per cause [1s 200ms], no search past 3 schedules", asked)
	}
	keep := BaseCost(asked[0])
	if want := (time.Second + processStartup + 3*time.Second) + (200*time.Millisecond + processStartup + time.Second); keep != want {
		t.Errorf("BaseCost %v, want %v", keep, want)
	}
	s.opts.KeepFor = nil
	if without := s.shrinkReserve(); got != without+keep || got <= none {
		t.Errorf("reserve %v, want %v (the replays' %v and KeepFor's %v)", got, without+keep, without, keep)
	}

	// 1 of 100 schedules, 10 s searched: 1,909 chances, 1,908 searched
	// at 100 ms each.
	k := add(&target{name: "TestRare", cost: 300 * time.Millisecond, stats: &TestStats{Schedules: 100, Failures: 1, Elapsed: 10 * time.Second}},
		&failure{kind: checks.TestFailure, message: "lost update", site: "rare_test.go:9"})
	s.counts = map[string]int{k: 1}
	s.opts.KeepFor = func(causes []CauseCost) time.Duration {
		asked = append(asked, slices.Clone(causes))
		return BaseCost(causes)
	}
	s.shrinkReserve()
	last := asked[len(asked)-1]
	if len(last) != 3 || last[2] != (CauseCost{Replay: 300 * time.Millisecond, Search: 1908 * 100 * time.Millisecond}) {
		t.Fatalf("KeepFor asked %v, want the rare cause's search of 1,908 schedules at 100ms", last)
	}
	if got, want := BaseCost(last[2:]), 300*time.Millisecond+processStartup+190800*time.Millisecond; got != want {
		t.Errorf("BaseCost of the rare cause %v, want %v", got, want)
	}
}
