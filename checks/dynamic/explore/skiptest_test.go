package explore

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
)

// TestSkipTest: the search asks SkipTest about each test before searching
// it, in order, and a test it turns down gets no slice and no process.
// No process runs: both are skipped. Fails without Options.SkipTest: both
// are searched (SkipTest not asked, a search's time on each).
func TestSkipTest(t *testing.T) {
	t.Parallel()
	var asked []string
	s := &search{opts: Options{Budget: time.Hour, Workers: 1, Schedules: 10, SkipTest: func(r TestRef) bool {
		asked = append(asked, r.Package+"."+r.Name)
		return true
	}}, failures: map[string]*failure{}, owners: map[string]*target{}, workDir: t.TempDir()}
	s.deadline, s.hardStop = budgetEnds(time.Now(), time.Hour)
	var targets []*target
	for _, n := range []string{"TestA", "TestB"} {
		targets = append(targets, &target{pkg: rewrite.Package{ImportPath: "example.com/p", Dir: t.TempDir()}, name: n,
			bin: "/nonexistent/p.test", cost: time.Millisecond, stats: &TestStats{Test: n, Schedules: 1}})
	}
	s.searchTests(context.Background(), targets)
	if want := []string{"example.com/p.TestA", "example.com/p.TestB"}; !slices.Equal(asked, want) {
		t.Errorf("SkipTest asked about %q, want %q", asked, want)
	}
	for _, tg := range targets {
		if tg.stats.Schedules != 1 || tg.stats.Elapsed != 0 {
			t.Errorf("%s: %d schedules in %v, want its unperturbed one alone and no search", tg.name, tg.stats.Schedules, tg.stats.Elapsed)
		}
	}
	if s.stats.Processes != 0 || len(s.notes) != 0 {
		t.Errorf("%d processes started, notes %q; want none", s.stats.Processes, s.notes)
	}
}
