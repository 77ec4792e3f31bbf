package explore

import (
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// The bound of a test's schedules after its unperturbed one: twice its
// steps, within [rt.DefaultMaxSteps, PlainMaxSteps]; the default when it
// stopped at its own bound; Options.MaxSteps when set.
func TestSearchSteps(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		r    rt.Result
		want int
	}{
		{"short", rt.Result{Outcome: "pass", Steps: 800}, rt.DefaultMaxSteps},
		{"amqp's", rt.Result{Outcome: "pass", Steps: 24004}, 48008},
		{"a failure", rt.Result{Outcome: "leak", Steps: 44083}, 88166},
		{"past half the plain bound", rt.Result{Outcome: "leak", Steps: 54083}, PlainMaxSteps},
		{"near the plain bound", rt.Result{Outcome: "pass", Steps: 90000}, PlainMaxSteps},
		{"stopped there", rt.Result{Outcome: "pass", Steps: PlainMaxSteps, Inconclusive: rt.StepBoundPrefix + "no end after 100000 scheduling steps"}, rt.DefaultMaxSteps},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &search{}
			tg := &target{stats: &TestStats{}}
			s.plainSteps(tg, tc.r)
			if got := s.searchBound(tg); got != tc.want || tg.stats.MaxSteps != tc.want || tg.stats.PlainSteps != tc.r.Steps {
				t.Errorf("searchBound %d, stats %+v; want %d", got, *tg.stats, tc.want)
			}
			s.opts.MaxSteps = 3000
			s.plainSteps(tg, tc.r)
			if got, plain := s.searchBound(tg), s.plainBound(); got != 3000 || plain != 3000 {
				t.Errorf("with Options.MaxSteps 3000: searchBound %d, plainBound %d", got, plain)
			}
		})
	}
	if got := (&search{}).searchBound(&target{stats: &TestStats{}}); got != rt.DefaultMaxSteps {
		t.Errorf("before the unperturbed run: %d, want the default", got)
	}
}

// A schedule after an unperturbed one that ran past the search bound
// costs in proportion; one within it costs as much.
func TestSearchCost(t *testing.T) {
	t.Parallel()
	spun := rt.Result{Steps: PlainMaxSteps}
	if got := searchCost(5*time.Second, spun, rt.DefaultMaxSteps); got != time.Second {
		t.Errorf("after %d steps in 5s, a schedule of %d costs %v, want 1s", PlainMaxSteps, rt.DefaultMaxSteps, got)
	}
	short := rt.Result{Steps: 800}
	if got := searchCost(5*time.Millisecond, short, rt.DefaultMaxSteps); got != 5*time.Millisecond {
		t.Errorf("a short test's cost %v, want 5ms", got)
	}
}
