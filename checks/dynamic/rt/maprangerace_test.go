package rt

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestMapRangeNoToolRace: two controlled goroutines each ranging over a
// map of their own share nothing, and the race detector says so. The
// range's choice count was written outside a norace function: every
// schedule of ttlcache v3.4.0's Test_Cache_set reported a data race at
// cache.go:171 (its parallel subtests' ranges over their caches' event
// handlers), the tool's own. It needs -race; a build without it runs the
// test again in one with it (ranInRaceChild).
func TestMapRangeNoToolRace(t *testing.T) {
	if ranInRaceChild(t) {
		return
	}
	if os.Getenv("RT_MAPRANGE_CHILD") != "" {
		t.Skip()
	}
	if out, _ := runTestChild("TestMapRangeRaceChild", "RT_MAPRANGE_CHILD=1"); strings.Contains(out, "WARNING: DATA RACE") || !strings.Contains(out, "--- PASS: TestMapRangeRaceChild") {
		t.Errorf("two goroutines ranging over maps of their own: race reported or the child failed:\n%s", out)
	}
}

// TestMapRangeRaceChild is run in a subprocess: a goroutine and the test
// goroutine each range over a map of their own, several times.
func TestMapRangeRaceChild(t *testing.T) {
	if os.Getenv("RT_MAPRANGE_CHILD") == "" {
		t.Skip("subprocess helper")
	}
	RunSchedules(t, Config{Schedules: 5, Seed: 3, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		own := func() int {
			m := map[int]int{1: 1, 2: 2, 3: 3}
			n := 0
			for range 3 {
				mapRange(m, func(k, v int) bool { n += k + v; return true })
				Gosched()
			}
			return n
		}
		done := make(chan struct{})
		Go(func() {
			own()
			Close(done)
		})
		own()
		Recv(done)
	}, nil)
}
