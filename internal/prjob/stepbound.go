// Tests whose schedules stopped at the step bound, as notes.

package prjob

import (
	"fmt"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// StepBoundNotes names each test some of whose schedules stopped at the
// step bound (bound scheduling steps) before the test ended: they are
// inconclusive, neither a failure nor a pass, which "N schedules, 0
// failing" does not say. flag, when set, is the flag that raises the
// bound, suggested when every schedule of a test stopped there.
func StepBoundNotes(tests []explore.TestStats, bound int, flag string) []string {
	var out []string
	for _, ts := range tests {
		if ts.StepBound == 0 {
			continue
		}
		n := fmt.Sprintf("%s: %d of %d schedules stopped at the step bound (%d scheduling steps) before the test ended: inconclusive, neither a failure nor a pass",
			ts.Test, ts.StepBound, ts.Schedules, bound)
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
