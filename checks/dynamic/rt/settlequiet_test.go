package rt

import (
	"strings"
	"testing"
)

// TestSettleQuiet: a ticker loop left running after its test returned
// waits on a channel at every jump of the clock, thousands of them before
// the leak is called. settle looked at a dump of every goroutine (and
// made a megabyte for it) at each: a leaking schedule took seconds on a
// loaded machine and was cut short at the end of its share (recall
// kernel tickerstopsignal). While the number of goroutines stays what it
// was when none outside control was busy, only every quietEvery-th looks.
func TestSettleQuiet(t *testing.T) {
	settleDumps = 0
	rs := explore(t, 1, func(t *testing.T) {
		tk := NewTicker(1000)
		Go(func() {
			for {
				Recv(tk.C)
			}
		})
	})
	r := rs[0]
	if r.Outcome != "leak" || !strings.HasPrefix(r.Message, LeakRunning) {
		t.Fatalf("outcome %s %q, want a leak of the running loop", r.Outcome, r.Message)
	}
	ticks := 0
	for _, d := range r.Decisions {
		if d.Op == "chan receive" {
			ticks++
		}
	}
	t.Logf("%d dumps, %d ticks", settleDumps, ticks)
	// About one in quietEvery+1; half as many again when the count of
	// goroutines moved meanwhile (one ending).
	if ticks < 1000 || settleDumps > 2*ticks/quietEvery {
		t.Fatalf("%d dumps for %d ticks, want at most two in %d", settleDumps, ticks, quietEvery)
	}
}
