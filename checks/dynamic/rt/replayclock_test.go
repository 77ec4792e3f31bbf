package rt

import (
	"os"
	"testing"
	"time"
)

// realWaitThenRead waits in real I/O for a write that comes after wait,
// and then reads how much virtual time passed.
func realWaitThenRead(wait *time.Duration, passed *time.Duration) func(t *testing.T) {
	return func(t *testing.T) {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		defer w.Close()
		tm := NewTimer(time.Hour) // a deadline for real time to move the clock towards
		start := Now()
		d := *wait
		go func() { time.Sleep(d); w.Write([]byte{1}) }() // outside control
		r.Read(make([]byte, 1))                           // real I/O
		TimerStop(tm)                                     // back under control
		*passed = Since(start)
	}
}

// TestReplayClockFromSchedule: real time a goroutine spends outside
// control moves the virtual clock in a search (a timeout around real I/O
// fires no earlier than it would for real); a replay moves it where the
// recording's decisions say (Decision.Clock), not by its own real waits,
// which a loaded machine makes longer: the program reads the same times.
func TestReplayClockFromSchedule(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	wait, passed := 20*time.Millisecond, time.Duration(0)
	body := realWaitThenRead(&wait, &passed)
	// The recording needs the scheduler to have seen the goroutine in
	// real I/O; a loaded machine may hand it back first: tried again.
	var rec *Result
	for try := 0; try < 20 && rec == nil; try++ {
		rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}, body, nil)
		if len(rs) != 1 || rs[0].Outcome != "pass" {
			t.Fatalf("recording: %+v", rs)
		}
		for _, d := range rs[0].Decisions {
			if d.Clock != 0 {
				rec = &rs[0]
			}
		}
	}
	if rec == nil {
		t.Fatal("no recording has a decision that says where real time moved the clock")
	}
	recorded := passed
	wait = 400 * time.Millisecond // the replay's machine is slower
	sched := &Schedule{Seed: rec.Seed, Decisions: rec.Decisions}
	rr := RunSchedules(t, Config{Replay: sched, StepTimeout: 10 * time.Second}, body, nil)
	if len(rr) != 1 || rr[0].Outcome != "pass" || rr[0].Diverged != "" {
		t.Fatalf("replay: %d results, the first %s %q diverged %q", len(rr), rr[0].Outcome, rr[0].Message, rr[0].Diverged)
	}
	if passed != recorded {
		t.Errorf("the replay read %v passed, the recording %v: its clock followed its own real wait", passed, recorded)
	}
}
