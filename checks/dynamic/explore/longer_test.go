package explore

import (
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// A test whose unperturbed run stops at PlainMaxSteps (the fake's
// TestLongSteps takes 180,000 steps) runs it again with a longer bound
// when the budget has the time: that run replaces the first, and the
// test's other schedules get a bound from its steps, none stopped.
func TestLongerUnperturbedRun(t *testing.T) {
	t.Parallel()
	// The longer run's slot is what 400,000 steps take at the fake's
	// pace (20µs) with half again, 13 s: the budget's first two thirds
	// hold it on a loaded machine. The search ends with its schedules.
	res, _, err := fakeSearchN(t, "TestLongSteps", 60*time.Second, fakeSchedules)
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats.Tests[0]
	if st.PlainSteps != 180000 || st.MaxSteps != 2*180000 || st.StepBound != 0 || st.Schedules == 0 {
		t.Errorf("stats %+v: want the unperturbed run's 180000 steps, a bound of 360000 and no schedule stopped at it", st)
	}
	for _, n := range res.Notes {
		if strings.Contains(n, "step bound") {
			t.Errorf("note %q", n)
		}
	}
}

// A test that needs more steps than the longer run has keeps its first
// unperturbed run, and the note says both bounds.
func TestLongerUnperturbedRunStops(t *testing.T) {
	t.Parallel()
	res, _, err := fakeSearchN(t, "TestLongStepsMore", 60*time.Second, fakeSchedules)
	if err != nil {
		t.Fatal(err)
	}
	st := res.Stats.Tests[0]
	if st.PlainSteps != PlainMaxSteps || st.MaxSteps != rt.DefaultMaxSteps || st.LongerSteps != 4*PlainMaxSteps || st.StepBound != st.Schedules {
		t.Errorf("stats %+v: want the first run's %d steps, the default bound and one longer run stopped at %d", st, PlainMaxSteps, 4*PlainMaxSteps)
	}
}

// The longer run's bound and slot: four times the first bound, in what
// that takes at the first run's pace (half again, and a second); none
// past its one try or the time there is.
func TestLongerWant(t *testing.T) {
	t.Parallel()
	first := &rt.Result{Steps: PlainMaxSteps, Elapsed: time.Second}
	tg := &target{boundFirst: first}
	if want, bound := tg.longerWant(time.Minute); bound != 4*PlainMaxSteps || want != 7*time.Second {
		t.Errorf("longer run: %v, %d; want 7s, %d", want, bound, 4*PlainMaxSteps)
	}
	if want, bound := tg.longerWant(6 * time.Second); want != 0 || bound != 0 {
		t.Errorf("with 6s: %v, %d; want none", want, bound)
	}
	tg.longerRuns = longerTries
	if want, _ := tg.longerWant(time.Hour); want != 0 {
		t.Errorf("after %d tries: %v, want none", longerTries, want)
	}
	if want, _ := (&target{}).longerWant(time.Hour); want != 0 {
		t.Errorf("not stopped at the bound: %v, want none", want)
	}
}
