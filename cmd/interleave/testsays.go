// How interleave test sums up its findings' labels.

package main

import (
	"fmt"

	"github.com/interleave-dev/interleave/checks"
)

// labelCounts says how the findings are labelled: " (2 schedule-dependent,
// 1 on every schedule; plain go test fails 1 of them too)", or "", with
// the order-dependent ones (checks.Finding.OrderDependent) apart when
// there are some: " (1 schedule-dependent, 2 order-dependent, …".
func labelCounts(fs []checks.Finding) string {
	var dep, order, every, plain int
	for _, f := range fs {
		if q := f.Frequency; q != nil && q.Schedules > 0 {
			switch {
			case q.Every():
				every++
			case f.OrderDependent():
				order++
			default:
				dep++
			}
		}
		if f.PlainGo.Fails() {
			plain++
		}
	}
	if dep+order+every == 0 {
		return ""
	}
	orders := ""
	if order > 0 {
		orders = fmt.Sprintf(", %d order-dependent", order)
	}
	return fmt.Sprintf(" (%d schedule-dependent%s, %d on every schedule; plain go test fails %d of them too)", dep, orders, every, plain)
}
