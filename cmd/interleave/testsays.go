// What interleave test says of its search besides the findings.

package main

import (
	"fmt"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// stepBoundNotes names each test some of whose schedules stopped at the
// step bound before the test ended: they are inconclusive, neither a
// failure nor a pass, which "N schedules, 0 failing" does not say.
func stepBoundNotes(tests []explore.TestStats, bound int) []string {
	var out []string
	for _, ts := range tests {
		if ts.StepBound == 0 {
			continue
		}
		n := fmt.Sprintf("%s: %d of %d schedules stopped at the step bound (%d scheduling steps) before the test ended: inconclusive, neither a failure nor a pass",
			ts.Test, ts.StepBound, ts.Schedules, bound)
		if ts.StepBound >= ts.Schedules {
			n += fmt.Sprintf("; the test needs more steps than that (try -max-steps %d)", 10*bound)
		}
		out = append(out, n)
	}
	return out
}

// labelCounts says how the findings are labelled: " (2 schedule-dependent,
// 1 on every schedule; plain go test fails 1 of them too)", or "".
func labelCounts(fs []checks.Finding) string {
	var dep, every, plain int
	for _, f := range fs {
		if q := f.Frequency; q != nil && q.Schedules > 0 {
			if q.Every() {
				every++
			} else {
				dep++
			}
		}
		if f.PlainGo.Fails() {
			plain++
		}
	}
	if dep+every == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d schedule-dependent, %d on every schedule; plain go test fails %d of them too)", dep, every, plain)
}
