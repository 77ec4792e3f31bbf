// A timer that fires while its own goroutine runs on to it: a loaded
// machine's delay between a select's pick of another case and the
// goroutine's Stop, Reset or next select of the timer.

package rt

import (
	"reflect"
	"time"
	"unsafe"
)

// ownDeadline is the earliest deadline of a timer a goroutine that can
// run (list) is about to touch, when the clock may move to it early
// (earlyTime), firing what is due by then: the timer is due within
// earlyMax, has a channel, and the goroutine is at its Stop or Reset
// (only before Go 1.23's timers, asyncTimerChan: since, a value not yet
// received is dropped by them, so firing first changes nothing but the
// clock) or at a select that runs now (a ready case or a default) with a
// receive from its channel. Cheap when no timer is pending.
//
//go:norace
func (s *sched) ownDeadline(list []Candidate) (time.Duration, bool) {
	if len(s.tq) == 0 {
		return 0, false
	}
	var to time.Duration
	found := false
	for _, c := range list {
		if c.G < 0 || c.G >= len(s.gs) {
			continue
		}
		g := s.gs[c.G]
		switch g.req.op {
		case opTimerStop, opTimerReset, opTickerStop, opTickerReset:
			if !asyncTimerChan {
				continue
			}
		case opSelect:
		default:
			continue
		}
		for _, vt := range s.tq {
			if s.due(vt) && vt.deadline > s.now && vt.deadline-s.now <= earlyMax && (!found || vt.deadline < to) && s.touches(g, vt) {
				to, found = vt.deadline, true
			}
		}
	}
	return to, found
}

// touches: is g's next operation vt's Stop or Reset (asyncTimerChan
// only), or a select with a receive from its channel?
//
//go:norace
func (s *sched) touches(g *gstate, vt *vtimer) bool {
	if vt.ch == nil {
		return false
	}
	switch g.req.op {
	case opTimerStop, opTimerReset:
		return asyncTimerChan && s.timers[(*time.Timer)(g.req.obj)] == vt
	case opTickerStop, opTickerReset:
		return asyncTimerChan && s.tickers[(*time.Ticker)(g.req.obj)] == vt
	case opSelect:
		p := reflect.ValueOf(vt.ch).UnsafePointer()
		for _, c := range g.req.cases {
			if !c.send && c.ptr == p {
				return true
			}
		}
	}
	return false
}

// setStale notes whether vt's channel holds a value sent before its last
// Reset (asyncTimerChan), for staleRecv.
//
//go:norace
func (s *sched) setStale(vt *vtimer, stale bool) {
	if vt.stale == stale {
		return
	}
	vt.stale = stale
	if stale {
		s.staleTimers = append(s.staleTimers, vt)
		return
	}
	for i, t := range s.staleTimers {
		if t == vt {
			s.staleTimers = append(s.staleTimers[:i], s.staleTimers[i+1:]...)
			break
		}
	}
}

// staleRecv notes a receive from the channel at p (sched.staleRead when
// it takes a stale value): the timer seems to have expired again right
// after its Reset. Not a drain (a select of that receive and a default
// only), which is how code takes such a value away. Cheap when no timer
// holds a stale value.
//
//go:norace
func (s *sched) staleRecv(p unsafe.Pointer, drain bool) {
	for _, vt := range s.staleTimers {
		if vt.ch != nil && reflect.ValueOf(vt.ch).UnsafePointer() == p {
			if !drain {
				s.staleRead = true
			}
			s.setStale(vt, false)
			return
		}
	}
}

// addDeadline adds d to ts, earliest first, once.
func addDeadline(ts []time.Duration, d time.Duration) []time.Duration {
	for i, t := range ts {
		if t == d {
			return ts
		}
		if t > d {
			ts = append(ts, 0)
			copy(ts[i+1:], ts[i:])
			ts[i] = d
			return ts
		}
	}
	return append(ts, d)
}
