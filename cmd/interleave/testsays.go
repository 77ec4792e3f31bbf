// How interleave test sums up its findings' labels.

package main

import (
	"fmt"

	"github.com/interleave-dev/interleave/checks"
)

// labelCounts says how the findings are labelled: " (2 schedule-dependent,
// 1 on every schedule; plain go test fails 1 of them too)", or "", with
// the order-dependent ones (checks.Finding.OrderDependent) and the
// seed-dependent ones (checks.Finding.DrawsOnly) apart when there are
// some: " (1 schedule-dependent, 2 order-dependent, …".
func labelCounts(fs []checks.Finding) string {
	var dep, order, seed, every, plain int
	for _, f := range fs {
		if q := f.Frequency; q != nil && q.Schedules > 0 {
			switch {
			case q.Every():
				every++
			case f.OrderDependent():
				order++
			case f.DrawsOnly:
				seed++
			default:
				dep++
			}
		}
		if f.PlainGo.Fails() {
			plain++
		}
	}
	if dep+order+seed+every == 0 {
		return ""
	}
	orders := ""
	if order > 0 {
		orders = fmt.Sprintf(", %d order-dependent", order)
	}
	if seed > 0 {
		orders += fmt.Sprintf(", %d seed-dependent", seed)
	}
	return fmt.Sprintf(" (%d schedule-dependent%s, %d on every schedule; plain go test fails %d of them too)", dep, orders, every, plain)
}
