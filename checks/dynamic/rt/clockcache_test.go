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
	// Outside control: a real ticker, whose ticks in real time never come
	// while the test runs (it is its virtual ticks that move the cache).
	tk := NewTicker(time.Minute)
	cacheNow.Store(Now().UnixNano())
	go func() {
		for range tk.C {
			cacheNow.Store(Now().UnixNano())
		}
	}()
}

// clockCache passes under go test: after a sleep of 3m the cache (at most
// a tick old) is at least 2m past the stamp taken before it. Under control the
// sleep jumps the virtual clock. Without tickReal the cache's goroutine
// has not ticked since, and without Now on the virtual clock outside
// control it stores the real time, a few milliseconds on:
// the test fails in every schedule, on two clocks the tool made, not on
// the code.
func clockCache(t *testing.T) {
	start := Now()
	Sleep(3 * time.Minute)
	if got := time.Unix(0, cacheNow.Load()).Sub(start); got < 2*time.Minute {
		t.Errorf("the cache moved %v in a sleep of 3m", got)
	}
}

// clockCacheFail fails on its own, with the time cache running: a test
// failure as ever.
func clockCacheFail(t *testing.T) {
	Sleep(10 * time.Millisecond)
	t.Errorf("boom")
}

// TestClockCache: while the program keeps a ticker on the real clock,
// made before any schedule, a jump of the virtual clock past its next
// tick sends it and waits for its goroutine, which reads the virtual
// clock, so a test that
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

// A program with two tickers made at init (as ants's default pool makes
// its purge and clock tickers): one a goroutine reads to keep a time
// cache, one nobody reads. Only in the child processes of TestClockPace.
var paceCache atomic.Int64

func init() {
	if os.Getenv("RT_CLOCK_PACE") == "" {
		return
	}
	tk := NewTicker(50 * time.Second)
	NewTicker(40 * time.Second)
	paceCache.Store(Now().UnixNano())
	go func() {
		for range tk.C {
			paceCache.Store(Now().UnixNano())
		}
	}()
}

// clockPace sleeps 100 times 1ms, which passes no tick of the real
// tickers, then twice 2h, which pass one each: only those two jumps wait
// for the real clock's goroutines (realPaces), and the cache moves with
// the virtual clock. Then it spins reading the clock for 60s, which
// moves the clock without a timer past the 50s ticker's next tick (4h is
// a whole number of its periods): the cache moves along. The spin costs
// CPU in proportion to the virtual time it reads through.
func clockPace(t *testing.T) {
	paces := realPaces.Load()
	start := Now()
	for range 100 {
		Sleep(time.Millisecond)
	}
	if n := realPaces.Load() - paces; n != 0 {
		t.Errorf("%d waits for the real clock in 100 jumps that pass none of its ticks, want 0", n)
	}
	Sleep(2 * time.Hour)
	Sleep(2 * time.Hour)
	if n := realPaces.Load() - paces; n != 2 {
		t.Errorf("%d waits for the real clock, want 2 (the two jumps past a tick)", n)
	}
	if got := time.Unix(0, paceCache.Load()).Sub(start); got < 4*time.Hour {
		t.Errorf("the cache moved %v in sleeps of 4h", got)
	}
	start = Now()
	for Since(start) < 60*time.Second {
	}
	if got := time.Unix(0, paceCache.Load()).Sub(start); got <= 0 {
		t.Errorf("the cache did not move in a loop that read the clock for 60s (%v)", got)
	}
}

// TestClockPace: the program's real tickers cost real time only at the
// jumps of the virtual clock that pass one of their ticks, not at every
// jump (a suite that sleeps often ran out of its budget waiting).
func TestClockPace(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Setenv("RT_CLOCK_PACE", "1")
	rs, out, _ := runMain(t, Config{Test: "TestClockPace", Strategy: "random", Seed: 1, Schedules: 2, StepTimeout: 10 * time.Second})
	if len(rs) != 2 {
		t.Fatalf("%d results, want 2\n%s", len(rs), out)
	}
	for _, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Errorf("schedule %d: %s %q (inconclusive %q), want a pass", r.Index, r.Outcome, r.Message, r.Inconclusive)
		}
	}
}

// TestRealTickerOutside: a ticker made while no schedule runs ticks on the
// real clock, and its Stop and Reset (TickerStop, TickerReset) work on it
// (the Ticker handed out has only C set: its own methods would panic); a
// stopped one leaves the list schedules tick.
func TestRealTickerOutside(t *testing.T) {
	live := realClocks.Load()
	tk := NewTicker(time.Millisecond)
	if realClocks.Load() != live+1 {
		t.Fatalf("%d real clocks after NewTicker, want %d", realClocks.Load(), live+1)
	}
	<-tk.C
	TickerReset(tk, time.Hour)
	TickerStop(tk)
	if realClocks.Load() != live {
		t.Errorf("%d real clocks after Stop, want %d", realClocks.Load(), live)
	}
	for _, rk := range realTickersNow() {
		if rk.c == tk.C {
			t.Errorf("a stopped ticker is still among those a schedule ticks")
		}
	}
	TickerReset(tk, time.Millisecond) // a stopped ticker starts again
	<-tk.C
	TickerStop(tk)
	if realClocks.Load() != live {
		t.Errorf("%d real clocks after the second Stop, want %d", realClocks.Load(), live)
	}
}
