// go test's -timeout on the virtual clock: a test blocked for good while
// other goroutines wake only on timers.

package rt

import (
	"reflect"
	"strconv"
	"strings"
	"time"
)

// DefaultTestTimeout is go test's -timeout when none is given.
const DefaultTestTimeout = 10 * time.Minute

// TestTimeoutPrefix starts the message of a schedule whose test timed out
// (testTimedOut).
const TestTimeoutPrefix = "deadlock: the test timed out: "

// hungWait is how long a goroutine waits at its operation, on the virtual
// clock, to count among those a timeout shows blocked: as in go test's
// dump, which shows a wait's duration from a minute on; goroutines woken
// more often (a janitor on its ticker) are live, not the hang.
const hungWait = time.Minute

// testTimedOut: at a point where nothing can run and the clock is about to
// move to the next deadline (next), has the test been blocked there for
// its -timeout (Config.TestTimeout) by then? go test would have ended the
// binary ("panic: test timed out after 10m0s"). Under control such a test
// never deadlocks (a ticker wakes some goroutine every period) and used to
// run to the step bound. The test is blocked when its innermost running
// goroutine (the test's, or the subtest it waits for in t.Run) waits at a
// channel, lock or WaitGroup operation that no step made possible since it
// parked, and not on a timer's channel (its own timeout, which fires and
// fails the test as it would under go test, with its own message); no
// goroutine is outside control (its real work could end the wait); and
// what moves the clock past the timeout was armed while it waited (a
// ticker ticking, a loop's sleep or timer): the program went on without
// it. A one-shot wait armed before (a worker's hour-long sleep the test
// waits for) keeps the test waiting as before, however long: tests use
// such waits as free under virtual time. A test whose result comes before
// its timeout, however long the wait, is not affected. It sets the
// failure and reports whether it did.
//
//go:norace
func (s *sched) testTimedOut(next time.Duration) bool {
	if s.testDone || len(s.outside) > 0 || s.fail != nil {
		return false
	}
	g := s.gs[0]
	for g.parked && g.req.op == opRunWait && g.req.child != nil && !g.req.child.exited {
		g = g.req.child
	}
	if g.exited || !g.parked || g.set != setBlocked || s.enabled(g) || s.timerCase(g) {
		return false
	}
	limit := s.cfg.TestTimeout
	if limit <= 0 {
		limit = DefaultTestTimeout
	}
	at := after(g.parkAt, limit)
	if next <= at || !s.rearmedSince(next, g.parkAt) {
		return false
	}
	if at > s.now {
		s.now = at
		s.tickReal()
	}
	f := &failure{kind: "deadlock"}
	s.collectStates(f)
	var parts []string
	live := 0
	keep := f.gs[:0]
	for _, st := range f.gs {
		h := s.gs[st.ID]
		if h != g && (!h.parked || h.set != setBlocked || s.now-h.parkAt < hungWait) {
			live++
			continue
		}
		keep = append(keep, st)
		parts = append(parts, "g"+strconv.Itoa(st.ID)+" blocked on "+st.Op+" at "+shortSite(st.Site)+" for "+(s.now-h.parkAt).String())
	}
	f.gs = keep
	msg := TestTimeoutPrefix + "blocked for " + limit.String() + " of virtual time (go test's -timeout) while goroutines woke only on timers: " + strings.Join(parts, "; ")
	if live > 0 {
		msg += " (" + strconv.Itoa(live) + " live on timers not shown)"
	}
	f.msg = msg
	f.site = pickSite(f.gs)
	s.fail = f
	return true
}

// timerCase: does g wait at a receive from a timer's or ticker's channel
// (its own timeout)?
//
//go:norace
func (s *sched) timerCase(g *gstate) bool {
	var ps []uintptr
	switch g.req.op {
	case opRecv:
		ps = append(ps, uintptr(g.req.obj))
	case opSelect:
		for _, c := range g.req.cases {
			if !c.send && c.ptr != nil {
				ps = append(ps, uintptr(c.ptr))
			}
		}
	}
	for _, vt := range s.tq {
		if vt.ch == nil || !s.due(vt) {
			continue
		}
		p := reflect.ValueOf(vt.ch).Pointer()
		for _, q := range ps {
			if q == p {
				return true
			}
		}
	}
	return false
}

// rearmedSince: was a timer or sleep due at next (the earliest deadline)
// armed after virtual time t?
//
//go:norace
func (s *sched) rearmedSince(next, t time.Duration) bool {
	for _, vt := range s.tq {
		if s.due(vt) && vt.deadline == next && vt.armedAt > t {
			return true
		}
	}
	for _, g := range s.gs {
		if g.parked && !g.exited && g.req.op == opSleep && g.wakeAt == next && g.parkAt > t {
			return true
		}
	}
	return false
}
