package explore

import (
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// The bound of a test's schedules after its unperturbed one: twice its
// steps, within [rt.DefaultMaxSteps, PlainMaxSteps] (or the longer bound
// its unperturbed run had); the default when it stopped at its own bound;
// Options.MaxSteps when set. Only a run stopped at PlainMaxSteps itself is
// kept for a longer one.
func TestSearchSteps(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		r      rt.Result
		given  int
		want   int
		longer bool
	}{
		{"short", rt.Result{Outcome: "pass", Steps: 800}, 0, rt.DefaultMaxSteps, false},
		{"amqp's", rt.Result{Outcome: "pass", Steps: 24004}, 0, 48008, false},
		{"a failure", rt.Result{Outcome: "leak", Steps: 44083}, 0, 88166, false},
		{"past half the plain bound", rt.Result{Outcome: "leak", Steps: 54083}, 0, PlainMaxSteps, false},
		{"near the plain bound", rt.Result{Outcome: "pass", Steps: 90000}, 0, PlainMaxSteps, false},
		{"stopped there", rt.Result{Outcome: "pass", Steps: PlainMaxSteps, Inconclusive: rt.StepBoundPrefix + "no end after 100000 scheduling steps"}, 0, rt.DefaultMaxSteps, true},
		{"a longer run's", rt.Result{Outcome: "pass", Steps: 180420}, 4 * PlainMaxSteps, 360840, false},
		{"a longer run's, near its bound", rt.Result{Outcome: "pass", Steps: 260031}, 4 * PlainMaxSteps, 4 * PlainMaxSteps, false},
		{"a longer run stopped", rt.Result{Outcome: "pass", Steps: 4 * PlainMaxSteps, Inconclusive: rt.StepBoundPrefix + "no end after 400000 scheduling steps"}, 4 * PlainMaxSteps, rt.DefaultMaxSteps, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := &search{}
			tg := &target{stats: &TestStats{}}
			given := tc.given
			if given == 0 {
				given = s.plainBound()
			}
			s.plainSteps(tg, tc.r, given)
			if got := s.searchBound(tg); got != tc.want || tg.stats.MaxSteps != tc.want || tg.stats.PlainSteps != tc.r.Steps {
				t.Errorf("searchBound %d, stats %+v; want %d", got, *tg.stats, tc.want)
			}
			if (tg.boundFirst != nil) != tc.longer {
				t.Errorf("kept for a longer run: %v, want %v", tg.boundFirst != nil, tc.longer)
			}
			s.opts.MaxSteps = 3000
			s.plainSteps(tg, tc.r, s.plainBound())
			if tg.boundFirst != nil {
				t.Errorf("with Options.MaxSteps: kept for a longer run")
			}
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
