// What an early move of the clock ended and whom it passed over
// (Result.EarlyMoves), for a finding's label.

package rt

import (
	"reflect"
	"time"
	"unsafe"
)

// EarlyMove is what an early move of the clock (Decision.Early) did: the
// timed waits it ended and the goroutines that could run but had not.
type EarlyMove struct {
	Step   int           `json:"step"` // the decision it came before (Decision.Early)
	By     time.Duration `json:"by"`   // how far the clock moved
	Ended  []EndedWait   `json:"ended,omitempty"`
	Passed []PassedG     `json:"passed,omitempty"`
}

// EndedWait is a timed wait an early move ended: a goroutine's
// time.Sleep, its receive or select on a timer's channel, or an AfterFunc
// or a context deadline (WithTimeout, WithDeadline) whose callback it
// started.
type EndedWait struct {
	G  int    `json:"g"`  // the waiting goroutine (an AfterFunc's: its callback)
	Op string `json:"op"` // "time.Sleep", "time.After", "timer", "ticker", "AfterFunc", "context deadline"
	// Site is where the goroutine waits (file.go:line); Armed where the
	// timer was made or last reset (none for a sleep, or when unknown).
	Site  string        `json:"site,omitempty"`
	Armed string        `json:"armed,omitempty"`
	D     time.Duration `json:"d,omitempty"` // the sleep's or the timer's duration
	// Own is set when no goroutine waited on the timer's channel: it
	// fired while G ran on to its operation Own at Site ("Timer.Stop",
	// "Timer.Reset", "select"), as a loaded machine's delay lets it.
	Own string `json:"own,omitempty"`
}

// PassedG is a goroutine that could run when the clock moved early.
type PassedG struct {
	G    int    `json:"g"`
	Op   string `json:"op,omitempty"`
	Site string `json:"site,omitempty"`
}

// pendingTimer is an active timer before an early move (earlyBefore).
type pendingTimer struct {
	vt       *vtimer
	deadline time.Duration
}

// earlyBefore notes the active timers before an early move, for
// earlyNote; only when a move is about to be tried.
//
//go:norace
func (s *sched) earlyBefore() {
	s.earlyPend = s.earlyPend[:0]
	for _, vt := range s.tq {
		if vt.active {
			s.earlyPend = append(s.earlyPend, pendingTimer{vt, vt.deadline})
		}
	}
}

// earlyNote records the EarlyMove of a move from before to s.now, with
// list the candidates it passed over, before decision s.steps.
//
//go:norace
func (s *sched) earlyNote(list []Candidate, before time.Duration) {
	mv := &EarlyMove{Step: s.steps, By: s.now - before}
	for _, g := range s.gs {
		if g.parked && !g.exited && g.req.op == opSleep && g.wakeAt > before && g.wakeAt <= s.now {
			mv.Ended = append(mv.Ended, EndedWait{G: g.id, Op: "time.Sleep", Site: s.shortSiteOf(g), D: g.req.d})
		}
	}
	for _, p := range s.earlyPend {
		vt := p.vt
		if p.deadline > s.now {
			continue
		}
		w := EndedWait{G: -1, Armed: s.armSite(vt), D: vt.armD}
		switch vt.kind {
		case tkFunc:
			w.Op = "AfterFunc"
			if vt.ctx {
				w.Op = "context deadline"
			}
			if vt.cb != nil {
				w.G = vt.cb.id
			}
			mv.Ended = append(mv.Ended, w)
			continue
		case tkAfter:
			w.Op = "time.After"
		case tkTimer:
			w.Op = "timer"
		default:
			w.Op = "ticker"
		}
		if vt.ch == nil {
			continue
		}
		ptr := reflect.ValueOf(vt.ch).UnsafePointer()
		for _, g := range s.gs {
			if g.parked && !g.exited && waitsOn(g, ptr) && !inList(list, g.id) {
				w.G, w.Site = g.id, s.shortSiteOf(g)
				mv.Ended = append(mv.Ended, w)
			}
		}
		for _, c := range list {
			// Fired while its own goroutine, which could run, ran on
			// to it (ownDeadline).
			if c.G >= 0 && c.G < len(s.gs) && s.touches(s.gs[c.G], vt) {
				w.G, w.Site, w.Own = c.G, s.shortSiteOf(s.gs[c.G]), s.gs[c.G].req.op.String()
				mv.Ended = append(mv.Ended, w)
			}
		}
	}
	for _, c := range list {
		if c.G >= 0 && c.G < len(s.gs) && !ended(mv, c.G) {
			g := s.gs[c.G]
			mv.Passed = append(mv.Passed, PassedG{G: g.id, Op: g.req.op.String(), Site: s.shortSiteOf(g)})
		}
	}
	s.earlyMoves = append(s.earlyMoves, *mv)
}

// waitsOn: is g parked receiving from the channel at p, alone or in a
// select?
//
//go:norace
func waitsOn(g *gstate, p unsafe.Pointer) bool {
	switch g.req.op {
	case opRecv:
		return g.req.obj == p
	case opSelect:
		for _, c := range g.req.cases {
			if !c.send && c.ptr == p {
				return true
			}
		}
	}
	return false
}

// armSite is where vt was made or last reset: the site of that decision
// ("" when it is not of this schedule).
//
//go:norace
func (s *sched) armSite(vt *vtimer) string {
	if vt.armStep <= 0 || vt.armStep > s.decisions.len() {
		return ""
	}
	return s.sitedDecision(vt.armStep - 1).Site
}

// ended: is g's wait among mv's ended ones (a replay's candidates include
// a sleeper its replayClock made due)?
func ended(mv *EarlyMove, g int) bool {
	for _, w := range mv.Ended {
		if w.G == g {
			return true
		}
	}
	return false
}

// inList: is goroutine g among the candidates of list (it could run)?
func inList(list []Candidate, g int) bool {
	for _, c := range list {
		if c.G == g {
			return true
		}
	}
	return false
}
