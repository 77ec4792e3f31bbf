// A loop that works until a time has passed: its clock stretched.

package rt

import "time"

// A loop that reads the clock between operations that are not spinning
// (a stress test's workers, each taking a lock or a CAS until
// time.Since(start) passes its duration) runs, under go test, as many
// turns as fit its duration: millions, beyond any step bound, while
// reads alone move the virtual clock (NowTick each). Once reads alone
// have moved it for stretchAfter decisions, before the test returned,
// each read moves it by a growing tick instead (stretchFirst, doubled
// every stretchEvery reads up to stretchMax; never past the next
// deadline, where what is due fires at the next decision): the turns
// take longer, as on a loaded machine, and the loop ends within the
// bound. The tick follows from the decisions, so a
// replay stretches alike (one of a schedule recorded without a stretch,
// Schedule.Stretch unset, never does). Once a stretched read took the
// clock to a deadline (a timer's, a sleep's: stretchDue) only a data race
// counts (driver.go, StretchFailPrefix): a failure or a leak may then be
// the test's own timeout, come sooner than it would. A failure with no
// deadline reached so is the code's: the loop only ran fewer turns; but
// where the stretch took the clock ahead of real time (StretchedBy), a
// clock only compared (a time to live) may have made it, and explore
// replays it without the stretch (stretchMade).
const (
	stretchAfter = 4096
	stretchFirst = time.Microsecond
	stretchEvery = 256
	stretchMax   = 10 * time.Millisecond
)

// readMove moves the clock for a read (readClock): by NowTick, or by the
// stretch once it started, which it starts or grows.
//
//go:norace
func (s *sched) readMove() {
	if s.now != s.tickedNow || s.testDone {
		// Moved by something else (a timer, a jump, real time), or the
		// test returned (its leftovers' loops are a leak's to tell): a
		// new run of reads.
		s.tickRunFrom, s.stretch, s.stretchReads = s.steps, 0, 0
	}
	tick := s.nowTick
	if !s.testDone && !s.noStretch && s.steps-s.tickRunFrom >= stretchAfter {
		switch {
		case s.stretch == 0:
			s.stretch = stretchFirst
		case s.stretchReads >= stretchEvery && s.stretch < stretchMax:
			s.stretch, s.stretchReads = 2*s.stretch, 0
			if s.stretch > stretchMax {
				s.stretch = stretchMax
			}
		}
		s.stretchReads++
		if s.stretch > tick {
			tick = s.stretch
		}
	}
	before := s.now
	atDeadline := s.advance(tick)
	s.tickedNow = s.now
	if s.now-before > s.nowTick {
		s.stretched = true
		s.stretchedBy += s.now - before - s.nowTick
		if atDeadline {
			s.stretchDue, s.stretchFire = true, true
		}
	}
}
