// A finding reached through an early jump of the clock: what the jump
// ended, before whom (rt.Decision.Moved), told as checks.EarlyTimers.

package explore

import (
	"strconv"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// earlyJumps counts ds's early jumps that ended a timed wait (rt's
// earlyNote; not those that only overlapped an AfterFunc's callbacks).
func earlyJumps(ds []rt.Decision) int {
	n := 0
	for _, d := range ds {
		if d.Early && d.Moved != nil {
			n++
		}
	}
	return n
}

// earlyTimers returns e (repro's, from the log; nil in test and pr) with
// the early jumps of the told schedule ds; nil when there are none and e
// is nil. searched: ds is a search's finding's (keepInstead chose it).
func earlyTimers(e *checks.EarlyTimers, ds []rt.Decision, searched bool) *checks.EarlyTimers {
	var moves []checks.EarlyMove
	for i, d := range ds {
		if !d.Early || d.Moved == nil {
			continue
		}
		m := checks.EarlyMove{}
		for _, w := range d.Moved.Ended {
			cw := checks.EndedWait{G: gLabel(w.G), Op: w.Op, Site: w.Site, Armed: w.Armed, InTest: inTestFile(w.Site)}
			if w.D > 0 {
				cw.Duration = w.D.String()
			}
			m.Ended = append(m.Ended, cw)
		}
		if len(m.Ended) == 0 {
			continue
		}
		for _, p := range d.Moved.Passed {
			cp := checks.PassedG{G: gLabel(p.G), Op: p.Op, Site: p.Site}
			if cp.Site == "" {
				// Not started yet: where it ran first after the jump.
				for _, n := range ds[i:] {
					if n.G == p.G && n.Site != "" {
						cp.Site, cp.Next = n.Site, true
						break
					}
				}
			}
			m.Passed = append(m.Passed, cp)
		}
		moves = append(moves, m)
	}
	if e == nil {
		if len(moves) == 0 {
			return nil
		}
		return &checks.EarlyTimers{Jumps: len(moves), Moves: moves, Searched: searched}
	}
	out := *e
	out.Moves = moves
	return &out
}

// gLabel is a logical goroutine's name ("g3"; "an AfterFunc's callback"
// when it is not known).
func gLabel(g int) string {
	if g < 0 {
		return "a callback"
	}
	return "g" + strconv.Itoa(g)
}
