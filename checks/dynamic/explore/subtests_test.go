package explore

import (
	"fmt"
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestSubtestsAloneChoice: with Targets, the top-level subtests that
// started goroutines, other than the first, become tests of their own,
// the most goroutines first, at most maxAlonePerTest per test; none
// without Targets, none of a test whose unperturbed run did not finish.
func TestSubtestsAloneChoice(t *testing.T) {
	t.Parallel()
	pkg := rewrite.Package{ImportPath: "example.com/m"}
	var many []rt.SubtestRun
	for i := 0; i < 12; i++ {
		many = append(many, rt.SubtestRun{Name: fmt.Sprintf("S%d", i), Goroutines: i})
	}
	client := &target{pkg: pkg, name: "TestClient", weight: 1, subtests: []rt.SubtestRun{
		{Name: "First", Goroutines: 5}, {Name: "Do"}, {Name: "DoAll", Goroutines: 3}, {Name: "Batch", Goroutines: 4},
	}}
	wide := &target{pkg: pkg, name: "TestWide", weight: 2, subtests: many}
	stopped := &target{pkg: pkg, name: "TestStopped", plainStopped: true, subtests: many}
	s := &search{opts: Options{Targets: []string{"/m/a.go:3"}}}
	got := s.subtestsAlone([]*target{client, stopped, wide})
	var names []string
	for _, st := range got {
		names = append(names, st.name)
	}
	want := []string{"TestClient/Batch", "TestClient/DoAll", "TestWide/S11", "TestWide/S10", "TestWide/S9", "TestWide/S8", "TestWide/S7", "TestWide/S6", "TestWide/S5", "TestWide/S4"}
	if fmt.Sprint(names) != fmt.Sprint(want) {
		t.Errorf("searched alone: %v\nwant %v", names, want)
	}
	if got[2].weight != 2 || got[0].pkg.ImportPath != "example.com/m" {
		t.Errorf("a subtest alone keeps its test's weight and package: %+v", got[2])
	}
	s.opts.Targets = nil
	if got := s.subtestsAlone([]*target{client}); len(got) != 0 {
		t.Errorf("without Targets: %d searched alone", len(got))
	}
	if p := plainRunPattern("TestClient/Do.All", nil); p != `^TestInterleavePlainX?$/^plain$/^TestClient$/^Do\.All$` {
		t.Errorf("plain pattern %s", p)
	}
}
