package rt

import (
	"os"
	"strings"
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

// clockCache passes under go test: after a sleep of 100ms the cache
// (at most a tick old) is past the stamp taken before it. Under control
// the sleep jumps the virtual clock while the cache's goroutine stays on
// the real one, so the test fails in every schedule: a failure of two
// clocks the tool made, not of the code.
func clockCache(t *testing.T) {
	start := Now()
	Sleep(100 * time.Millisecond)
	if cached := time.Unix(0, cacheNow.Load()); !cached.After(start) {
		t.Errorf("cached time %v is not after %v", cached, start)
	}
}

// clockCacheFail fails on its own, with the time cache running but no
// jump of the virtual clock: a test failure as ever.
func clockCacheFail(t *testing.T) {
	Gosched()
	t.Errorf("boom")
}

// TestClockCache: a test that fails after the virtual clock jumped while
// the program keeps a ticker on the real clock is inconclusive (it
// compares the two clocks), not a test failure; a failure without a jump
// is still one. Without the rule every schedule of TestClockCache is a
// test-failure.
func TestClockCache(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Setenv("RT_CLOCK_CACHE", "1")
	rs, out, _ := runMain(t, Config{Test: "TestClockCache", Strategy: "random", Seed: 1, Schedules: 20, StepTimeout: 10 * time.Second})
	if len(rs) != 20 {
		t.Fatalf("%d results, want 20\n%s", len(rs), out)
	}
	clock := 0
	for _, r := range rs {
		// A schedule in which a real tick came after the stamp passes.
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %q, want a pass (inconclusive when the check failed)", r.Index, r.Outcome, r.Message)
		}
		if strings.HasPrefix(r.Inconclusive, ClockFailPrefix) {
			clock++
		}
	}
	if clock == 0 {
		t.Errorf("no schedule was inconclusive for the clocks (%q)\n%s", ClockFailPrefix, out)
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
