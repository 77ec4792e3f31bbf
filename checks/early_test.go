package checks

import (
	"strings"
	"testing"
)

// TestEarlyTimersLabel: the label of a failure reached through an early
// jump names what ended (a test's sleep, a timer in the code, an
// AfterFunc, a context deadline) and whom it passed over; repro's keeps its log wording.
func TestEarlyTimersLabel(t *testing.T) {
	for _, c := range []struct {
		e    EarlyTimers
		want []string
	}{
		{EarlyTimers{Jumps: 1, Searched: true, Moves: []EarlyMove{{
			Ended:  []EndedWait{{G: "g0", Op: "time.Sleep", Site: "cache_test.go:412", Duration: "10ms", InTest: true}},
			Passed: []PassedG{{G: "g7", Op: "Mutex.Lock", Site: "cache.go:40"}},
		}}}, []string{"reached when g0's time.Sleep(10ms) at cache_test.go:412 ended while g7 (at cache.go:40) could still run: the test uses a sleep as synchronization; plain go test can fail the same way when a loaded machine delays g7 that long"}},
		{EarlyTimers{Jumps: 2, Searched: true, Moves: []EarlyMove{{
			Ended:  []EndedWait{{G: "g1", Op: "timer", Site: "pool.go:18", Armed: "pool.go:17", Duration: "1ms"}},
			Passed: []PassedG{{G: "g2", Site: "pool.go:30", Next: true}, {G: "g3", Site: "pool.go:31"}},
		}, {Ended: []EndedWait{{G: "g0", Op: "time.Sleep"}}}}}, []string{"reached when g1's wait at pool.go:18 on a 1ms timer made at pool.go:17 ended while g2 (not started; it runs at pool.go:30 next), g3 (at pool.go:31) could still run (and 1 more early jump): a timeout fired before the work it waits for had run", "delays g2 and g3 that long"}},
		{EarlyTimers{Jumps: 1, Searched: true, Moves: []EarlyMove{{
			Ended: []EndedWait{{G: "g4", Op: "AfterFunc", Armed: "srv.go:9", Duration: "5s"}, {G: "g0", Op: "time.Sleep", Site: "srv.go:12"}},
		}}}, []string{"reached when the 5s AfterFunc armed at srv.go:9 and g0's time.Sleep at srv.go:12 ended: a timeout fired", "delays the other goroutines that long"}},
		{EarlyTimers{Jumps: 1, Searched: true, Moves: []EarlyMove{{
			Ended:  []EndedWait{{G: "g3", Op: "context deadline", Armed: "client.go:21", Duration: "2s"}},
			Passed: []PassedG{{G: "g1", Op: "chan send", Site: "client.go:30"}},
		}}}, []string{"reached when the 2s context deadline (context.WithTimeout/WithDeadline at client.go:21) ended while g1 (at client.go:30) could still run"}},
		{EarlyTimers{Jumps: 1, Searched: true, Moves: []EarlyMove{{
			Ended:  []EndedWait{{G: "g1", Op: "timer", Own: "Timer.Stop", Site: "conn.go:52", Armed: "conn.go:40", Duration: "200ms"}},
			Passed: []PassedG{{G: "g0", Op: "time.Sleep", Site: "conn_test.go:12"}},
		}}}, []string{"reached when the 200ms timer made at conn.go:40 fired while g1 ran on to its Timer.Stop at conn.go:52; g0 (at conn_test.go:12) could still run: the timer fired while its own goroutine ran on to its Timer.Stop; plain go test can fail the same way when a loaded machine delays g1 that long"}},
		{EarlyTimers{Jumps: 1, Searched: true, Moves: []EarlyMove{{
			Ended: []EndedWait{{G: "g0", Op: "time.Sleep", Site: "link_test.go:59", Duration: "60ms", InTest: true}, {G: "g1", Op: "ticker", Own: "select", Site: "link.go:42", Armed: "link.go:38", Duration: "100ms"}},
		}}}, []string{"reached when g0's time.Sleep(60ms) at link_test.go:59 ended and the 100ms ticker made at link.go:38 fired while g1 ran on to its select at link.go:42: the timer fired while its own goroutine ran on to its select; plain go test can fail the same way when a loaded machine delays g1 that long"}},
		{EarlyTimers{Jumps: 3}, []string{"needs a timer to fire early: the schedule moves the clock 3 times"}},
	} {
		l := c.e.Label()
		for _, w := range c.want {
			if !strings.Contains(l, w) {
				t.Errorf("label %q\nwant %q in it", l, w)
			}
		}
	}
	many := EarlyMove{Ended: []EndedWait{{G: "g0", Op: "time.Sleep"}}}
	for _, g := range []string{"g1", "g2", "g3", "g4", "g5"} {
		many.Passed = append(many.Passed, PassedG{G: g, Site: "a.go:1"})
	}
	if l := (&EarlyTimers{Jumps: 1, Searched: true, Moves: []EarlyMove{many}}).Label(); !strings.Contains(l, "g3 (at a.go:1), 2 more could still run") || !strings.Contains(l, "delays g1, g2, g3 and 2 more that long") {
		t.Errorf("five goroutines passed over: label %q, want three named and 2 more", l)
	}
	if l := (&EarlyTimers{Jumps: 1, FromLog: true, Moves: []EarlyMove{{Ended: []EndedWait{{G: "g0", Op: "time.Sleep"}}}}}).Label(); !strings.HasPrefix(l, "needs a timer to fire early") || !strings.HasSuffix(l, ": g0's time.Sleep ended") {
		t.Errorf("repro's label %q, want the log's wording and the move", l)
	}
	if l := (&EarlyTimers{Jumps: 1, Moves: []EarlyMove{{Ended: []EndedWait{{G: "g0", Op: "time.Sleep"}}}}}).Label(); strings.Contains(l, "no failing schedule") || !strings.HasPrefix(l, "reached when g0's time.Sleep ended") {
		t.Errorf("a replay's label %q, want the move without the search's claim", l)
	}
}
