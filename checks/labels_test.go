package checks

import (
	"strings"
	"testing"
)

// TestLabelsOrderDependent: a failure on some schedules that needs earlier
// runs in its process (groupcache's tests fail on each run after the
// first, whatever the schedule) is labelled order-dependent, not
// schedule-dependent; one on some schedules alone, or on every schedule,
// keeps its label.
func TestLabelsOrderDependent(t *testing.T) {
	some := &Frequency{Failing: 6, Schedules: 62}
	every := &Frequency{Failing: 4, Schedules: 4}
	earlier := &AfterEarlier{Schedules: 1}
	for _, c := range []struct {
		name  string
		f     Finding
		order bool
		want  string
	}{
		{"re-run state", Finding{Frequency: some, AfterEarlier: earlier}, true, "on 6 of 62 schedules (order-dependent: after earlier runs in its process)"},
		{"other tests first", Finding{Frequency: some, AfterEarlier: &AfterEarlier{Schedules: 2, Tests: []string{"TestA"}}}, true, "(order-dependent: after earlier runs in its process)"},
		{"schedule alone", Finding{Frequency: some}, false, "on 6 of 62 schedules (schedule-dependent)"},
		{"every schedule", Finding{Frequency: every, AfterEarlier: earlier}, false, "on every schedule tried (4)"},
		{"race once a process", Finding{Frequency: &Frequency{Failing: 3, Schedules: 3, Unseen: 22303}}, false, "on every schedule tried (3; 22303 more ran after its report in their process, where the race detector does not report it again)"},
		{"after return", Finding{Frequency: every, AfterReturn: true}, false, "on every schedule tried (4); " + AfterReturnLabel},
		{"draws only", Finding{Frequency: some, DrawsOnly: true}, false, "on 6 of 62 schedules (seed-dependent); " + DrawsOnlyLabel},
		{"inconclusive left out", Finding{Frequency: &Frequency{Failing: 19, Schedules: 19, Inconclusive: 2}}, false, "on every schedule tried (19; 2 more ended inconclusive)"},
	} {
		if got := c.f.OrderDependent(); got != c.order {
			t.Errorf("%s: OrderDependent %v, want %v", c.name, got, c.order)
		}
		if got := c.f.Labels(); !strings.HasPrefix(got, c.want) && !strings.Contains(got, c.want) {
			t.Errorf("%s: labels %q, want %q", c.name, got, c.want)
		}
	}
}
