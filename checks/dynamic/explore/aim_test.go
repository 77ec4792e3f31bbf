package explore

import (
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// The unperturbed runs' hits put the test that executed a target first,
// with most of the budget; the search's preemptions are counted per site;
// a target no run executed stays listed with no hits.
func TestAimFirst(t *testing.T) {
	s := &search{opts: Options{Targets: []string{"/m/p/pool.go:20", "/m/p/pool.go:40"}}}
	s.startTargets()
	mk := func(name string) *target {
		return &target{name: name, weight: 1, cost: time.Second, stats: &TestStats{Test: name, Plain: "pass", Cost: time.Second}}
	}
	a, b, c := mk("TestA"), mk("TestB"), mk("TestC")
	s.plainHits(a, rt.Result{})
	s.plainHits(b, rt.Result{TargetHits: map[string]int{"/m/p/pool.go:20": 3, "/elsewhere.go:1": 9}})
	s.plainHits(c, rt.Result{})
	s.mu.Lock()
	s.countPreempts(rt.Result{TargetPreempts: map[string]int{"/m/p/pool.go:20": 2}})
	s.countPreempts(rt.Result{TargetPreempts: map[string]int{"/m/p/pool.go:20": 1}})
	s.mu.Unlock()
	got := aimFirst([]*target{a, b, c})
	if got[0] != b || got[1] != a || got[2] != c {
		t.Fatalf("order %s %s %s, want TestB (executes a target) first, then the others in order", got[0].name, got[1].name, got[2].name)
	}
	shares, _ := budgetShares(got)
	if shares[0] < 0.6 {
		t.Errorf("the test that executes a target gets %.2f of the search, want most of it", shares[0])
	}
	want := []TargetStats{{Site: "/m/p/pool.go:20", Hits: 3, Tests: 1, Preempted: 3}, {Site: "/m/p/pool.go:40"}}
	if len(s.stats.Targets) != 2 || s.stats.Targets[0] != want[0] || s.stats.Targets[1] != want[1] {
		t.Errorf("targets %+v, want %+v", s.stats.Targets, want)
	}
	if b.stats.TargetHits != 3 || a.stats.TargetHits != 0 {
		t.Errorf("test hits %d, %d", b.stats.TargetHits, a.stats.TargetHits)
	}
	// No test executes a target: order and weights stay.
	d, e := mk("TestD"), mk("TestE")
	if got := aimFirst([]*target{d, e}); got[0] != d || d.weight != 1 {
		t.Errorf("without hits the order or weights changed")
	}
}
