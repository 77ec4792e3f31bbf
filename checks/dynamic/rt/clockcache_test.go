package rt

import (
	"os"
	"sync/atomic"
	"testing"
	"time"
)

// A time cache, as go-redis v9.17's internal/pool keeps one: a goroutine
// started by the package's init stores the real time at every tick of a
// ticker on the real clock, and the code under test stamps with the
// cached time. Only in the child processes of TestClockCache.
var cacheNow atomic.Int64

func init() {
	if os.Getenv("RT_CLOCK_CACHE") == "" {
		return
	}
	tk := NewTicker(5 * time.Millisecond) // outside control: a real ticker
	cacheNow.Store(Now().UnixNano())
	go func() {
		for range tk.C {
			cacheNow.Store(Now().UnixNano())
		}
	}()
}

// clockCache passes under go test: after a sleep of 3s the cache (at most
// a tick old) is 3s past the stamp taken before it. Under control the
// sleep jumps the virtual clock. Without paceReal the cache's goroutine
// has not ticked since, and without Now on the virtual clock outside
// control it stores the real time, only the wait (outsideWait, 1s) on:
// the test fails in every schedule, on two clocks the tool made, not on
// the code.
func clockCache(t *testing.T) {
	start := Now()
	Sleep(3 * time.Second)
	if got := time.Unix(0, cacheNow.Load()).Sub(start); got < 2*time.Second {
		t.Errorf("the cache moved %v in a sleep of 3s", got)
	}
}

// clockCacheFail fails on its own, with the time cache running: a test
// failure as ever.
func clockCacheFail(t *testing.T) {
	Sleep(10 * time.Millisecond)
	t.Errorf("boom")
}

// TestClockCache: while the program keeps a ticker on the real clock,
// made before any schedule, a jump of the virtual clock waits in real
// time and the ticker's goroutine reads the virtual clock, so a test that
// reads what it stores sees it move as under go test; a test that fails
// on its own still fails.
func TestClockCache(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Setenv("RT_CLOCK_CACHE", "1")
	rs, out, _ := runMain(t, Config{Test: "TestClockCache", Strategy: "random", Seed: 1, Schedules: 4, StepTimeout: 10 * time.Second})
	if len(rs) != 4 {
		t.Fatalf("%d results, want 4\n%s", len(rs), out)
	}
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Errorf("schedule %d: %s %q (inconclusive %q), want a pass", r.Index, r.Outcome, r.Message, r.Inconclusive)
		}
	}
	rs, out, _ = runMain(t, Config{Test: "TestClockCacheFail", Strategy: "random", Seed: 1, Schedules: 3, StepTimeout: 10 * time.Second})
	if len(rs) != 3 {
		t.Fatalf("%d results, want 3\n%s", len(rs), out)
	}
	for _, r := range rs {
		if r.Outcome != "test-failure" {
			t.Errorf("schedule %d: %s (inconclusive %q), want the test's own failure", r.Index, r.Outcome, r.Inconclusive)
		}
	}
}
