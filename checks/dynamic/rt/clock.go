package rt

import (
	"context"
	"reflect"
	"runtime"
	"sync"
	"time"
	"unsafe"
)

// One clock. Under control, time.Now, time.Since and time.Until (rewritten
// to Now, Since and Until) read the virtual clock that Sleep, timers and
// tickers run on, and context.WithTimeout and WithDeadline (and their Cause forms; rewritten to
// WithTimeout and WithDeadline) expire on it: a test that measures a sleep
// sees the slept duration, and a deadline races a timer on equal terms.
// Outside control, during a schedule, Now reads the virtual clock too, or
// the real time the schedule has run when more (outsideNow); else it is
// the standard function. The virtual clock
// starts at the wall time the schedule began (a replay's, at the recorded
// schedule's fraction of a second: sameFraction) and moves when the
// scheduler advances it and by NowTick at each read (none in a synctest
// bubble). Dependencies' time operations are rewritten too;
// code that is not (the standard library, test frameworks) still reads the
// real clock.

// nowSpins is how many Now calls a goroutine may make between two
// scheduling points before a Now becomes one: a loop waiting on the clock
// must let the clock move.
const nowSpins = 64

// Now is time.Now.
func Now() time.Time {
	if g := current(); g != nil {
		if point, outside := g.countNow(); point {
			g.call(&request{op: opNow, nowOutside: outside})
		}
		return g.readClock()
	}
	if realClocks.Load() > 0 {
		// The program keeps a real clock (realclock.go): during a
		// schedule its goroutines read the virtual one.
		return virtualNow() // the real time when no schedule runs
	}
	return outsideNow()
}

// outsideNow is Now on a goroutine outside control: the real time when
// no schedule runs; during one, the virtual clock, or the real time the
// schedule has run when that is more. The program's goroutines outside
// control (net/http's running a test's handler) then compare what they
// read with what controlled ones read: httprc v3.0.6's handler served a
// resource's second version once time.Since(start) passed 2 s, start
// read under control; the real clock said 80 ms while the test's sleep
// of 6 s had passed, and every schedule failed. A loop outside control
// waiting for time to pass still sees it pass at least as fast as for
// real.
//
//go:norace
func outsideNow() time.Time {
	s := active
	if s == nil {
		return time.Now()
	}
	v, r := s.base.Add(s.now), s.base.Add(time.Since(s.started))
	if r.After(v) {
		return r
	}
	return v
}

// LinkedTimeNow is the runtime's time.now for a declaration linked to it
// by name (rewrite's linkedClock): Now's wall reading and a monotonic one
// that moves with it.
func LinkedTimeNow() (sec int64, nsec int32, mono int64) {
	t := Now()
	return t.Unix(), int32(t.Nanosecond()), nanotimeOf(t)
}

// LinkedNanotime is the runtime's nanotime for a declaration linked to it
// by name: nanoseconds on Now's clock since a fixed instant.
func LinkedNanotime() int64 { return nanotimeOf(Now()) }

// nanotimeOf is t as LinkedNanotime reads it.
func nanotimeOf(t time.Time) int64 { return t.Sub(linkedEpoch).Nanoseconds() + 1 }

// linkedEpoch is LinkedNanotime's zero: a wall instant, so that virtual
// readings (which carry no monotonic clock) compare with it.
var linkedEpoch = time.Now().Round(0).Add(-time.Hour)

// NowTick is how far the virtual clock moves at each read: time passes
// between two reads, as it does for real, so that a stamp taken after
// another is after it (a generation that expires at a deadline the
// clock has reached), by more than the nanosecond a test gives an item
// that must have expired when it is next read (ttlcache's Keys). A read
// of the real clock takes tens of nanoseconds (49 ns or more between two
// reads on the machine this was measured on); 20 ns stays below that.
const NowTick = 20 * time.Nanosecond

// readClock reads the virtual clock and moves it by the schedule's tick
// (NowTick, or its replay's), not past the next deadline, unless g runs
// outside control, beside the scheduler, or in a synctest bubble, whose
// clock stands still between deadlines.
//
//go:norace
func (g *gstate) readClock() time.Time {
	t := virtualNow()
	if s := active; s != nil && !g.outside && s.bubble == 0 {
		s.readMove()
	}
	return t
}

// Since is time.Since.
func Since(t time.Time) time.Duration { return Now().Sub(t) }

// Until is time.Until.
func Until(t time.Time) time.Duration { return t.Sub(Now()) }

//go:norace
func (g *gstate) countNow() (point, outside bool) {
	g.nows++
	if s := active; s != nil && s.replay != nil && s.diverged == "" {
		if s.recordedNow(g) {
			return true, true // the recording's read was a scheduling point
		}
	} else if g.outside {
		// Back from outside control (a real round trip) and not yet
		// taken back: the clock has not yet counted the real time it
		// was out there (the scheduler adds it when it takes it back),
		// so the read waits for that, as a scheduling point. Whether it
		// is depends on timing: a replay follows its recording instead.
		return true, true
	}
	if s := active; s != nil && s.spinClock > 0 {
		// The clock moves for a loop reading it with nothing else
		// possible (clockHang): each read is a step. The clock moves as
		// many steps apart, with a 65th of the reads (each finds its
		// goroutine by a stack trace): the verdict comes sooner.
		return true, false
	}
	return g.nows > nowSpins, false
}

// recordedNow: is g's next decision in the schedule being replayed a
// read of the clock at this read's site that its recording made a
// scheduling point as g was back from outside control then
// (Decision.NowOutside)? g runs, so no decision of its own comes between
// the scheduler's step and that one. A read the count made one is left
// to the count: matched here, the 65th read of a loop at one site became
// its 1st, and the replay diverged after the loop (a cache's scan of 200
// items, each read for its expiry, before the failure: not reported).
//
//go:norace
func (s *sched) recordedNow(g *gstate) bool {
	ds := s.replay.Decisions
	for i := s.steps; i >= 0 && i < len(ds); i++ {
		if ds[i].G == g.id {
			return ds[i].NowOutside && ds[i].Op == opNow.String() && ds[i].Site == callerSite()
		}
	}
	return false
}

// callerSite is the short file:line of the first user frame calling in.
func callerSite() string {
	var pcs [16]uintptr
	n := runtime.Callers(2, pcs[:])
	for _, pc := range pcs[:n] {
		if site := userSite(pc); site != "" {
			return shortSite(site)
		}
	}
	return ""
}

//go:norace
func virtualNow() time.Time {
	s := active
	if s == nil {
		return time.Now()
	}
	return s.base.Add(s.now)
}

// WithTimeout is context.WithTimeout.
func WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	if current() == nil {
		return context.WithTimeout(parent, d)
	}
	return withDeadline(parent, Now().Add(d), d, context.WithDeadline)
}

// WithDeadline is context.WithDeadline; under control the deadline is on
// the virtual clock. The context is the standard library's own (a timer
// context whose real timer is set a day out), so that contexts derived
// from it behave exactly as usual, with Deadline reporting the virtual
// deadline; a virtual timer fires the real one at the deadline.
func WithDeadline(parent context.Context, dl time.Time) (context.Context, context.CancelFunc) {
	return withDeadline(parent, dl, 0, context.WithDeadline)
}

// withDeadline is WithDeadline with mk making the standard library's
// context (context.WithDeadline, or WithDeadlineCause with its cause);
// timeout is WithTimeout's duration (0 for WithDeadline), for the label.
func withDeadline(parent context.Context, dl time.Time, timeout time.Duration, mk func(context.Context, time.Time) (context.Context, context.CancelFunc)) (context.Context, context.CancelFunc) {
	if current() == nil {
		return mk(parent, dl)
	}
	if cur, ok := parent.Deadline(); ok && cur.Before(dl) {
		return context.WithCancel(parent) // as the standard library does
	}
	left := dl.Sub(Now())
	if left <= 0 {
		ctx, cancel := mk(parent, time.Now().Add(-time.Second))
		return &virtualDeadline{ctx, dl}, cancel
	}
	// The parent's own deadline is hidden from the standard library, which
	// would otherwise make no timer when it comes first on the real clock.
	ctx, cancel := mk(hiddenDeadline{parent}, time.Now().Add(left+24*time.Hour))
	real := timerOf(ctx)
	if real == nil {
		// Not the layout this was written for: the real clock, as before.
		cancel()
		return mk(parent, time.Now().Add(left))
	}
	vt := deadlineTimer(left, timeout, func() {
		fireDeadline(real)
		awaitCancel(ctx)
	})
	return &virtualDeadline{ctx, dl}, func() {
		if current() != nil {
			TimerStop(vt)
		}
		cancel()
	}
}

// fireDeadline fires a deadline's real timer (a test may hold it back).
var fireDeadline = func(real *time.Timer) { real.Reset(0) }

// awaitCancel waits, yielding, until ctx is cancelled: the standard
// library cancels it on a goroutine of the runtime's, started when the real
// timer fires. Blocked on ctx.Done() instead, the callback's goroutine
// could be found blocked outside control before that goroutine ran, and
// the scheduler would decide on (a select on ctx.Done() still open) where
// the recording had seen it closed: a replay diverged under load. Running,
// it is waited for as any step is.
func awaitCancel(ctx context.Context) {
	for ctx.Err() == nil {
		runtime.Gosched()
	}
}

// deadlineTimer is AfterFunc for withDeadline (under control): the timer
// is marked as a context deadline's, which an early move's label names,
// with WithTimeout's duration when shown > 0.
func deadlineTimer(d, shown time.Duration, f func()) *time.Timer {
	g := current()
	return armed(g.call(&request{op: opTimerNew, timerKind: tkFunc, d: d, fn: f, ctxTimer: true, ctxD: shown})).timer
}

// virtualDeadline is a standard timer context reporting the virtual
// deadline.
type virtualDeadline struct {
	context.Context
	deadline time.Time
}

func (c *virtualDeadline) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *virtualDeadline) String() string {
	return "context.WithDeadline(" + c.deadline.String() + ")"
}

// hiddenDeadline is a parent context without a deadline.
type hiddenDeadline struct{ context.Context }

func (hiddenDeadline) Deadline() (time.Time, bool) { return time.Time{}, false }

var (
	timerType = reflect.TypeOf((*time.Timer)(nil))
	mutexType = reflect.TypeOf(sync.Mutex{})
)

// timerOf returns the real timer of a context made by
// context.WithDeadline, or nil. It reads the timer under the context's
// mu: a parent cancelled by another goroutine clears it under that lock,
// and an unlocked read is a data race of the tool's own (go-redis's
// TestConnectionHook, reported against the user's WithTimeout).
func timerOf(ctx context.Context) *time.Timer {
	v := reflect.ValueOf(ctx)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("timer")
	if !f.IsValid() || f.Type() != timerType || !f.CanAddr() {
		return nil
	}
	if selfRace {
		return *(**time.Timer)(unsafe.Pointer(f.UnsafeAddr()))
	}
	if mu := v.Elem().FieldByName("mu"); mu.IsValid() && mu.Type() == mutexType && mu.CanAddr() {
		m := (*sync.Mutex)(unsafe.Pointer(mu.UnsafeAddr()))
		m.Lock()
		defer m.Unlock()
	}
	return *(**time.Timer)(unsafe.Pointer(f.UnsafeAddr()))
}
