package rt

import (
	"runtime/debug"
	"testing"
	"time"
)

// The default GODEBUG is the build setting the go command records (go
// version -m shows "build DefaultGODEBUG=asynctimerchan=1" for a test
// binary whose test file has //go:debug asynctimerchan=1).
func TestDefaultGODEBUG(t *testing.T) {
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{
		{Key: "-race", Value: "true"},
		{Key: "DefaultGODEBUG", Value: "asynctimerchan=1,panicnil=1"},
	}}
	if got := defaultGODEBUG(bi, true); got != "asynctimerchan=1,panicnil=1" {
		t.Errorf("defaultGODEBUG = %q", got)
	}
	if got := defaultGODEBUG(nil, false); got != "" {
		t.Errorf("defaultGODEBUG without build information = %q", got)
	}
}

func TestTimerChanAsyncSetting(t *testing.T) {
	for _, c := range []struct {
		env, def string
		want     bool
	}{
		{"", "", false},
		{"", "asynctimerchan=1,gotypesalias=0", true}, // a go line before 1.23
		{"", "asynctimerchan=0", false},
		{"asynctimerchan=0", "asynctimerchan=1", false}, // the environment wins
		{"asynctimerchan=1", "", true},
		{"asynctimerchan=1,asynctimerchan=2", "", false}, // the last setting wins
		{"http2debug=1", "asynctimerchan=1", true},
	} {
		if got := timerChanAsync(c.env, c.def); got != c.want {
			t.Errorf("timerChanAsync(%q, %q) = %v, want %v", c.env, c.def, got, c.want)
		}
	}
}

// A timer that fired while nobody received: with the channels of Go 1.23
// Stop reports it stopped and Reset leaves no value; before 1.23
// (asyncTimerChan) Stop reports it expired and the value stays in C after
// Stop and Reset, for a tick and a timer alike.
func TestAsyncTimerChanStaleValue(t *testing.T) {
	defer func(old bool) { asyncTimerChan = old }(asyncTimerChan)
	for _, async := range []bool{false, true} {
		asyncTimerChan = async
		var stopped, timerStale, tickerStale bool
		rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
			tm := NewTimer(time.Millisecond)
			tk := NewTicker(time.Millisecond)
			Sleep(3 * time.Millisecond / 2) // both fire meanwhile
			stopped = TimerStop(tm)
			TimerReset(tm, time.Hour)
			timerStale = Select(true, RecvCase(tm.C)) == 0
			TickerReset(tk, time.Hour)
			tickerStale = Select(true, RecvCase(tk.C)) == 0
		}, nil)
		if len(rs) != 1 || rs[0].Outcome != "pass" {
			t.Fatalf("async %v: %+v", async, rs)
		}
		if stopped == async || timerStale != async || tickerStale != async {
			t.Errorf("async %v: Stop reported %v, stale timer value %v, stale tick %v; want %v, %v, %v",
				async, stopped, timerStale, tickerStale, !async, async, async)
		}
	}
}
