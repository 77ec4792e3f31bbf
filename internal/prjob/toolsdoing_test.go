package prjob

import (
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// A failure no base commit can confirm is the tool's doing (a note, never
// posted) only when it failed on every schedule tried, the unperturbed
// one included, and plain go test ran its test and neither failed this
// way nor left its goroutines behind.
func TestToolsDoingUnconfirmed(t *testing.T) {
	every := &checks.Frequency{Failing: 1, Schedules: 1}
	some := &checks.Frequency{Failing: 1, Schedules: 40}
	passes := &checks.PlainGo{Command: "go test -race -run '^TestX$'", Runs: 1}
	for _, c := range []struct {
		name string
		f    checks.Finding
		want bool
	}{
		{"a hang on the one schedule tried, plain passes", checks.Finding{Kind: checks.Fatal, Frequency: every, PlainGo: passes}, true},
		{"schedule-dependent", checks.Finding{Kind: checks.Fatal, Frequency: some, PlainGo: passes}, false},
		{"a data race", checks.Finding{Kind: checks.DataRace, Frequency: every, PlainGo: passes}, false},
		{"plain fails too", checks.Finding{Kind: checks.Fatal, Frequency: every, PlainGo: &checks.PlainGo{Runs: 1, Failed: 1, ExitCode: 1}}, false},
		{"plain leaves the leak's goroutines too", checks.Finding{Kind: checks.Leak, Frequency: every, PlainGo: &checks.PlainGo{Runs: 1, LeavesSame: true}}, false},
		{"plain not run", checks.Finding{Kind: checks.Fatal, Frequency: every, PlainGo: &checks.PlainGo{NotRun: "the budget ran out"}}, false},
		{"no frequency", checks.Finding{Kind: checks.Fatal, PlainGo: passes}, false},
	} {
		if got := toolsDoingUnconfirmed(&c.f); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
