// How interleave test sums up its findings' labels.

package main

import (
	"fmt"

	"github.com/interleave-dev/interleave/checks"
)

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
