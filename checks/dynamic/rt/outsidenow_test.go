package rt

import (
	"testing"
	"time"
)

// TestOutsideNowAfterJump: a goroutine outside control (net/http's, running
// a test's handler) that measures time from a reading taken under control
// sees the time the controlled goroutines slept: httprc v3.0.6's handler
// compared time.Since(start) with 2 s after the test slept 6 s, and read
// the real clock's 80 ms.
func TestOutsideNowAfterJump(t *testing.T) {
	// Not parallel: a goroutine outside control finds its schedule as the
	// process's one (active), as under interleave, where one runs at a time.
	for seed := int64(1); seed <= 3; seed++ {
		r := RunFunc(Config{Seed: seed, StepTimeout: 5 * time.Second}, 0, func() {
			start := Now()
			Sleep(5 * time.Second)
			since := make(chan time.Duration)
			go func() { since <- Since(start) }() // not under control
			if d := Recv(since); d < 5*time.Second {
				panic("outside control, " + d.String() + " had passed")
			}
		})
		if r.Outcome != "pass" {
			t.Errorf("seed %d: outcome %s %q, want pass", seed, r.Outcome, r.Message)
		}
	}
	if d := Since(time.Now()); d > time.Minute || d < -time.Minute {
		t.Errorf("with no schedule, Since(time.Now()) = %v: not the real clock", d)
	}
}
