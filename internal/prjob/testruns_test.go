package prjob

import (
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// The report's per-test part says which tests were not searched further:
// no choice, or every schedule failed alike (JSON tests[].failsAlike).
// Fails without TestRuns copying FailsAlike.
func TestTestRunsStops(t *testing.T) {
	runs := TestRuns(explore.Stats{Tests: []explore.TestStats{
		{Package: "p", Test: "TestLeaky", Schedules: 8, Failures: 8, FailsAlike: true},
		{Package: "p", Test: "TestFlat", Schedules: 2, NoChoice: true},
	}})
	if len(runs) != 2 || !runs[0].FailsAlike || runs[0].NoChoice || !runs[1].NoChoice || runs[1].FailsAlike {
		t.Errorf("TestRuns = %+v, want TestLeaky failsAlike, TestFlat noChoice", runs)
	}
}
