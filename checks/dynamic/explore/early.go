// A finding reached through an early jump of the clock: what the jump
// ended, before whom (rt.Result.EarlyMoves), told as checks.EarlyTimers.

package explore

import (
	"strconv"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// earlyTimers returns e (repro's, from the log; nil in test and pr) with
// the early jumps moves of the told schedule ds; nil when there are none
// and e is nil. searched: a search's finding's (keepInstead chose it).
func earlyTimers(e *checks.EarlyTimers, ds []rt.Decision, moves []rt.EarlyMove, searched bool) *checks.EarlyTimers {
	var out []checks.EarlyMove
	for _, mv := range moves {
		m := checks.EarlyMove{}
		for _, w := range mv.Ended {
			cw := checks.EndedWait{G: gLabel(w.G), Op: w.Op, Site: w.Site, Armed: w.Armed, InTest: inTestFile(w.Site), Own: w.Own}
			if w.D > 0 {
				cw.Duration = w.D.String()
			}
			m.Ended = append(m.Ended, cw)
		}
		if len(m.Ended) == 0 {
			continue
		}
		for _, p := range mv.Passed {
			cp := checks.PassedG{G: gLabel(p.G), Op: p.Op, Site: p.Site}
			if cp.Site == "" && mv.Step >= 0 && mv.Step <= len(ds) {
				// Not started yet: where it ran first after the jump.
				for _, n := range ds[mv.Step:] {
					if n.G == p.G && n.Site != "" {
						cp.Site, cp.Next = n.Site, true
						break
					}
				}
			}
			m.Passed = append(m.Passed, cp)
		}
		out = append(out, m)
	}
	if e == nil {
		if len(out) == 0 {
			return nil
		}
		return &checks.EarlyTimers{Jumps: len(out), Moves: out, Searched: searched}
	}
	c := *e
	c.Moves = out
	return &c
}

// gLabel is a logical goroutine's name ("g3"; "a callback" when it is
// not known).
func gLabel(g int) string {
	if g < 0 {
		return "a callback"
	}
	return "g" + strconv.Itoa(g)
}
