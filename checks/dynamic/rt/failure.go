// Failures: deadlock, leak and misuse, with the goroutine states they report.

package rt

import (
	"bytes"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

type failure struct {
	kind, msg, site string
	gs              []GoroutineState
	sub             string // the top-level subtest it happened in (Result.Subtest)
}

//go:norace
func (s *sched) fatal(g *gstate, msg string) {
	if s.fail != nil || s.aborting {
		return
	}
	f := &failure{kind: "fatal", msg: msg, site: s.siteOf(g), sub: subName(g)}
	s.fail = f
}

// kindInconclusive marks a schedule stopped by a bound: not a failure.
const kindInconclusive = "inconclusive"

// blockedFailure ends the schedule with nothing left to do: a deadlock
// while the test runs, a leak after it returned. A leak is of two kinds,
// as in the runtime's goroutineleak profile: every goroutine left is
// blocked forever (nothing enabled, no timer to fire), or some are still
// running after the test returned, postTestSteps decisions and then a
// fair window (fairWindow) at whose end no fewer of them are live than
// at its start (running says so: spinning, sleeping in a loop,
// polling), which the message tells by LeakRunning.
//
//go:norace
func (s *sched) blockedFailure(running bool) {
	f := &failure{}
	s.collectStates(f)
	if s.testDone {
		// Daemons are the process's, not what the test leaked.
		f.gs = slices.DeleteFunc(f.gs, func(st GoroutineState) bool { return s.gs[st.ID].daemon })
	}
	var parts []string
	sites := slices.Clone(f.gs) // where each is told to be (pickSite)
	for i, st := range f.gs {
		g := s.gs[st.ID]
		switch {
		case !g.parked && st.Site != "":
			parts = append(parts, "g"+strconv.Itoa(st.ID)+" outside the scheduler ("+strings.TrimSuffix(strings.TrimPrefix(st.Op, "running ("), ")")+") at "+shortSite(st.Site))
		case !g.parked:
			parts = append(parts, "g"+strconv.Itoa(st.ID)+" outside the scheduler")
		case running && (s.enabled(g) || g.req.op == opSleep) && g.clockSite != "":
			// A loop a ticker or a sleep wakes: where it waits between
			// wakes, not where the window happened to stop it.
			parts = append(parts, "g"+strconv.Itoa(st.ID)+" running in a loop the clock wakes: waits on "+g.clockOp+" at "+shortSite(g.clockSite))
			sites[i].Site = g.clockSite
		case running && (s.enabled(g) || g.req.op == opSleep):
			parts = append(parts, "g"+strconv.Itoa(st.ID)+" running at "+st.Op+" at "+shortSite(st.Site))
		default:
			parts = append(parts, "g"+strconv.Itoa(st.ID)+" blocked on "+st.Op+" at "+shortSite(st.Site))
		}
	}
	if s.testDone {
		f.kind = "leak"
		f.msg = LeakBlocked + strings.Join(parts, "; ")
		if running {
			f.msg = LeakRunning + strconv.Itoa(s.postAll-1) + " decisions later, the last " + strconv.Itoa(s.postWindow) + " fair: " + strings.Join(parts, "; ")
		}
	} else {
		f.kind = "deadlock"
		f.msg = "deadlock: all goroutines are blocked: " + strings.Join(parts, "; ")
	}
	f.site = pickSite(sites)
	f.sub = s.commonSub(f.gs)
	s.fail = f
}

// noteClockWaits remembers, once the test has returned and nothing but
// the clock can move the goroutines left, what each waits at: a ticker
// loop left running (a janitor's select on its ticker) is told by that
// wait. Where the window's end stops it instead (a Mutex.Unlock in the
// purge its tick runs) changes from schedule to schedule; real Go finds
// it parked in the select almost always.
//
//go:norace
func (s *sched) noteClockWaits() {
	for _, g := range s.gs {
		if g.exited || !g.parked || g.daemon {
			continue
		}
		g.clockOp, g.clockSite = g.req.op.String(), s.siteOf(g)
	}
}

// pickSite chooses the failure site among blocked goroutines: the smallest
// site of a goroutine other than the test goroutine, so that the same bug
// gets the same site whatever the interleaving.
func pickSite(gs []GoroutineState) string {
	best := ""
	for _, st := range gs {
		if st.ID == 0 && len(gs) > 1 || st.Site == "" {
			continue
		}
		if best == "" || st.Site < best {
			best = st.Site
		}
	}
	if best == "" && len(gs) > 0 {
		best = gs[0].Site
	}
	return best
}

// collectStates records every live goroutine: its operation, site and stack
// (each parked goroutine is asked to capture its own stack).
//
//go:norace
func (s *sched) collectStates(f *failure) {
	for _, g := range s.gs {
		if g.exited {
			continue
		}
		st := GoroutineState{ID: g.id}
		if g.parked {
			if !g.dumped {
				s.sendAndWait(g, mDump)
				g.dumped = true
			}
			st.Op = g.req.op.String()
			st.Site = s.siteOf(g)
			st.Stack = g.stack
			st.Obj = s.objOf(&g.req)
		} else {
			st.Op = "running"
			if state, stack := realStack(g.gid); state != "" {
				// Outside control: what the runtime says it does, and
				// where in the program.
				st.Op, st.Stack = "running ("+state+")", stack
				_, st.Site, _ = goroutineAt(stack, g.gid)
			}
		}
		f.gs = append(f.gs, st)
	}
}

// realStack returns the runtime's state ("sync.Mutex.Lock", "IO wait")
// and traceback of goroutine gid, from a dump of all goroutines.
func realStack(gid uint64) (state, stack string) {
	if gid == 0 {
		return "", ""
	}
	buf := make([]byte, 1<<20)
	dump := buf[:runtime.Stack(buf, true)]
	h := []byte("goroutine " + strconv.FormatUint(gid, 10) + " [")
	i := bytes.Index(dump, h)
	if i < 0 {
		return "", ""
	}
	block := dump[i:]
	if j := bytes.Index(block, []byte("\n\n")); j >= 0 {
		block = block[:j]
	}
	st := block[len(h):]
	if j := bytes.IndexAny(st, ",]"); j >= 0 {
		st = st[:j]
	}
	return string(st), string(block)
}
