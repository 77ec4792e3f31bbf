package rt

import (
	"sync/atomic"
	"testing"
	"time"
)

// wokenBeforeYield: the test hands a value to a goroutine blocked on an
// unbuffered channel and calls Gosched; the woken goroutine reports on a
// buffered channel, which the test then reads without blocking. In the
// runtime the yield runs the woken goroutine (facebookgo/clock's mock
// yields after its timer's send so that the goroutine it woke reads the
// clock before Add moves it: rubyist/circuitbreaker's TestTimeoutBreaker).
func wokenBeforeYield(t *testing.T) {
	ch := make(chan int)
	done := make(chan int, 1)
	Go(func() { Send(done, Recv(ch)) })
	Sleep(time.Millisecond) // ends once the goroutine waits on ch
	Send(ch, 1)
	Gosched()
	k := Select(true, RecvCase(done))
	select {
	case <-PickRecv(k, 0, done):
	default:
		t.Errorf("after Gosched the goroutine woken before it had not run")
	}
}

// TestPlainYieldsAtGosched: the unperturbed schedule runs another goroutine
// when the last one yields, and replays.
func TestPlainYieldsAtGosched(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, wokenBeforeYield, nil)
	mustPass(t, rs)
	last := rs[len(rs)-1]
	sch := &Schedule{Version: ScheduleVersion, Seed: last.Seed, Decisions: last.Decisions}
	r := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, wokenBeforeYield)
	if r.Outcome != "pass" || r.Diverged != "" {
		t.Errorf("replay: %s, diverged %q", r.Outcome, r.Diverged)
	}
}

// TestPlainNextYields: Plain.Next passes over the last goroutine at a
// Gosched for the newest other, and keeps it when it is alone.
func TestPlainNextYields(t *testing.T) {
	t.Parallel()
	en := []Candidate{{G: 1, Op: "Gosched"}, {G: 2, Op: "chan receive"}, {G: 3, Op: "Mutex.Lock"}}
	if got := (Plain{}).Next(en, 1, 0); got != 2 {
		t.Errorf("Next at a Gosched = %d, want 2 (g3, the newest other)", got)
	}
	if got := (Plain{}).Next(en, 2, 0); got != 1 {
		t.Errorf("Next = %d, want 1 (the last, g2, runs on)", got)
	}
	if got := (Plain{}).Next(en[:1], 1, 0); got != 0 {
		t.Errorf("Next alone = %d, want 0", got)
	}
}

// spinnersAndHolder: two goroutines spin on a flag with Gosched; the test,
// older than both, yields once and then sets the flag. The yield runs the
// goroutine that waited longest, and each spinner's yield hands the turn
// on the same way, so the test runs again after each has run once (with
// the newest other, the two spinners would pass the turn to each other).
func spinnersAndHolder(t *testing.T) {
	var flag int32
	done := make(chan bool, 2)
	for i := 0; i < 2; i++ {
		Go(func() {
			for Then(AtomicLoad(&flag), atomic.LoadInt32(&flag)) == 0 {
				Gosched()
			}
			Send(done, true)
		})
	}
	Gosched()
	Atomic(&flag)
	atomic.StoreInt32(&flag, 1)
	Recv(done)
	Recv(done)
}

// TestPlainYieldRunsTheLongestWaiting: the unperturbed schedule of
// spinnersAndHolder takes a few decisions, not the spinners' ping-pong
// until the spin rule steps in.
func TestPlainYieldRunsTheLongestWaiting(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, spinnersAndHolder, nil)
	mustPass(t, rs)
	if n := len(rs[0].Decisions); n > 30 {
		t.Errorf("%d decisions, want at most 30: the yields did not reach the test's goroutine", n)
	}
}
