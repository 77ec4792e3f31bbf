// Tests whose schedules stopped at the step bound, as notes.

package prjob

import (
	"cmp"
	"fmt"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// StepBoundNotes names each test some of whose schedules stopped at the
// step bound before the test ended: they are inconclusive, neither a
// failure nor a pass, which "N schedules, 0 failing" does not say. set is
// the bound the user set for every schedule (-max-steps), 0 when the
// search chose them: explore.PlainMaxSteps for the unperturbed schedule,
// TestStats.MaxSteps for the others. flag, when set, is the flag that
// raises the bound, suggested when every schedule of a test stopped there.
func StepBoundNotes(tests []explore.TestStats, set int, flag string) []string {
	var out []string
	for _, ts := range tests {
		if ts.StepBound == 0 {
			continue
		}
		at, bound := StepBoundOf(ts, set)
		n := fmt.Sprintf("%s: %d of %d schedules stopped at the step bound (%s) before the test ended: inconclusive, neither a failure nor a pass",
			ts.Test, ts.StepBound, ts.Schedules, at)
		if ts.StepBound >= ts.Schedules {
			n += "; the test needs more steps than that"
			if flag != "" {
				n += fmt.Sprintf(" (try %s %d)", flag, 10*bound)
			}
		}
		out = append(out, n)
	}
	return out
}

// StepBoundOf says what step bound ts's schedules had ("20000 scheduling
// steps", and the unperturbed one's when it differs), set being the bound
// the user set (0: the search chose them), and the largest of them.
func StepBoundOf(ts explore.TestStats, set int) (at string, bound int) {
	switch {
	case set > 0:
		return fmt.Sprintf("%d scheduling steps", set), set
	case ts.PlainSteps >= explore.PlainMaxSteps && ts.MaxSteps <= rt.DefaultMaxSteps:
		// The unperturbed one needed more than its bound (and than a
		// longer run's, when one ran): the others kept the default.
		at = fmt.Sprintf("%d scheduling steps, the unperturbed one at %d", cmp.Or(ts.MaxSteps, rt.DefaultMaxSteps), explore.PlainMaxSteps)
		if ts.LongerSteps > 0 {
			return at + fmt.Sprintf(", then at %d", ts.LongerSteps), ts.LongerSteps
		}
		return at, explore.PlainMaxSteps
	}
	bound = cmp.Or(ts.MaxSteps, rt.DefaultMaxSteps)
	at = fmt.Sprintf("%d scheduling steps", bound)
	if ts.PlainSteps > 0 && bound > rt.DefaultMaxSteps {
		at += fmt.Sprintf("; the unperturbed one took %d", ts.PlainSteps)
	}
	return at, bound
}
