package explore

import (
	"testing"
	"time"
)

// Each test's schedules per second are in the stats (-v and the JSON
// report print them).
func TestSnapshotPerTestRate(t *testing.T) {
	t.Parallel()
	s := &search{}
	s.stats.Tests = []TestStats{
		{Test: "TestA", Schedules: 300, Elapsed: 2 * time.Second},
		{Test: "TestB"},
	}
	st := s.snapshot()
	if st.Tests[0].PerSecond != 150 || st.Tests[1].PerSecond != 0 {
		t.Errorf("per second %v, %v; want 150, 0", st.Tests[0].PerSecond, st.Tests[1].PerSecond)
	}
}
