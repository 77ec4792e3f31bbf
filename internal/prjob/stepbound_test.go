package prjob

import (
	"slices"
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// A test some of whose schedules stopped at the step bound is named, with
// the flag to raise it only when all did and there is one.
func TestStepBoundNotes(t *testing.T) {
	tests := []explore.TestStats{
		{Test: "TestAll", Schedules: 9, StepBound: 9},
		{Test: "TestNone", Schedules: 40},
		{Test: "TestSome", Schedules: 12, StepBound: 3},
	}
	got := StepBoundNotes(tests, 20000, "-max-steps")
	want := []string{
		"TestAll: 9 of 9 schedules stopped at the step bound (20000 scheduling steps) before the test ended: inconclusive, neither a failure nor a pass; the test needs more steps than that (try -max-steps 200000)",
		"TestSome: 3 of 12 schedules stopped at the step bound (20000 scheduling steps) before the test ended: inconclusive, neither a failure nor a pass",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := StepBoundNotes(tests[:1], 20000, ""); len(got) != 1 || got[0] != "TestAll: 9 of 9 schedules stopped at the step bound (20000 scheduling steps) before the test ended: inconclusive, neither a failure nor a pass; the test needs more steps than that" {
		t.Errorf("without a flag: %q", got)
	}
}

// When the search chose the bounds (none set), a note gives the test's
// own: the unperturbed schedule's explore.PlainMaxSteps when it stopped
// there (and a longer run's when that stopped too), else the bound its
// steps gave the others (a longer run's steps included).
func TestStepBoundNotesChosen(t *testing.T) {
	tests := []explore.TestStats{
		{Test: "TestSpin", Schedules: 4, StepBound: 4, PlainSteps: explore.PlainMaxSteps, MaxSteps: 20000},
		{Test: "TestLong", Schedules: 30, StepBound: 2, PlainSteps: 30000, MaxSteps: 60000},
		{Test: "TestShort", Schedules: 30, StepBound: 1, PlainSteps: 800, MaxSteps: 20000},
		{Test: "TestSpinLonger", Schedules: 3, StepBound: 3, PlainSteps: explore.PlainMaxSteps, MaxSteps: 20000, LongerSteps: explore.LongerMaxSteps},
		{Test: "TestLonger", Schedules: 5, StepBound: 1, PlainSteps: 180420, MaxSteps: 360840},
	}
	got := StepBoundNotes(tests, 0, "-max-steps")
	want := []string{
		"TestSpin: 4 of 4 schedules stopped at the step bound (20000 scheduling steps, the unperturbed one at 100000) before the test ended: inconclusive, neither a failure nor a pass; the test needs more steps than that (try -max-steps 1000000)",
		"TestLong: 2 of 30 schedules stopped at the step bound (60000 scheduling steps; the unperturbed one took 30000) before the test ended: inconclusive, neither a failure nor a pass",
		"TestShort: 1 of 30 schedules stopped at the step bound (20000 scheduling steps) before the test ended: inconclusive, neither a failure nor a pass",
		"TestSpinLonger: 3 of 3 schedules stopped at the step bound (20000 scheduling steps, the unperturbed one at 100000, then at 400000) before the test ended: inconclusive, neither a failure nor a pass; the test needs more steps than that (try -max-steps 4000000)",
		"TestLonger: 1 of 5 schedules stopped at the step bound (360840 scheduling steps; the unperturbed one took 180420) before the test ended: inconclusive, neither a failure nor a pass",
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
