package rt

import (
	"sync"
	"sync/atomic"
	"time"
)

// The program's own real clock. A ticker that rewritten code makes while
// no schedule runs (a package's init starting a time cache that stores
// time.Now every 50ms, as go-redis does; a default pool's purge ticker, as
// ants does) ticks on the real clock, sending the time Now reads. During a
// schedule it also ticks on the virtual clock: when the clock passes its
// next tick (a jump, or a loop reading the clock: tickReal), the tick is
// sent (dropped while the last one is unread, as a ticker drops it) and
// the scheduler waits until
// the goroutines outside control are idle again, so that what the
// ticker's goroutine keeps (a time cache, read through Now, which outside
// control reads the virtual clock meanwhile) has caught up before the
// test goes on. A jump that passes no such tick costs no real time.
type realTicker struct {
	mu      sync.Mutex
	c       chan time.Time // the program's C
	d       time.Duration
	timer   *time.Timer // the real clock
	stopped bool
	next    time.Duration // the next virtual tick, during a schedule
}

var (
	realMu      sync.Mutex
	realList    []*realTicker                    // live ones, in the order they were made
	realTickers = map[*time.Ticker]*realTicker{} // by the Ticker handed out
	realClocks  atomic.Int32                     // live ones
	realPaces   atomic.Int64                     // clock moves that sent a tick and waited
)

// noSchedule: is no schedule running (init, TestMain)?
//
//go:norace
func noSchedule() bool { return active == nil }

// newRealTicker makes a ticker on the program's real clock.
func newRealTicker(d time.Duration) *realTicker {
	rk := &realTicker{c: make(chan time.Time, 1), d: d}
	rk.mu.Lock()
	rk.timer = time.AfterFunc(d, rk.fire)
	rk.mu.Unlock()
	realMu.Lock()
	realList = append(realList, rk)
	realMu.Unlock()
	realClocks.Add(1)
	return rk
}

// newRealTickerValue makes one for NewTicker: &time.Ticker{C: c}, whose
// Stop and Reset are TickerStop's and TickerReset's.
func newRealTickerValue(d time.Duration) *time.Ticker {
	rk := newRealTicker(d)
	t := &time.Ticker{C: rk.c}
	realMu.Lock()
	realTickers[t] = rk
	realMu.Unlock()
	return t
}

func realTickerOf(t *time.Ticker) *realTicker {
	realMu.Lock()
	defer realMu.Unlock()
	return realTickers[t]
}

// fire is a tick of the real clock.
func (rk *realTicker) fire() {
	rk.mu.Lock()
	defer rk.mu.Unlock()
	if rk.stopped {
		return
	}
	select {
	case rk.c <- virtualNow():
	default:
	}
	rk.timer.Reset(rk.d)
}

func (rk *realTicker) stop() {
	rk.mu.Lock()
	defer rk.mu.Unlock()
	if !rk.stopped {
		rk.stopped = true
		realClocks.Add(-1)
		realMu.Lock()
		live := make([]*realTicker, 0, len(realList))
		for _, o := range realList {
			if o != rk {
				live = append(live, o)
			}
		}
		realList = live
		realMu.Unlock()
	}
	rk.timer.Stop()
	drainTick(rk.c)
}

//go:norace
func (rk *realTicker) reset(d time.Duration) {
	if d <= 0 {
		panic("non-positive interval for Ticker.Reset")
	}
	rk.mu.Lock()
	defer rk.mu.Unlock()
	if rk.stopped {
		rk.stopped = false
		realClocks.Add(1)
		realMu.Lock()
		realList = append(realList, rk)
		realMu.Unlock()
	}
	rk.d = d
	drainTick(rk.c)
	if s := active; s != nil {
		rk.next = s.now + d
	}
	rk.timer.Reset(d)
}

func drainTick(c chan time.Time) {
	select {
	case <-c:
	default:
	}
}

// realTickersNow returns the live real tickers.
func realTickersNow() []*realTicker {
	realMu.Lock()
	defer realMu.Unlock()
	return realList
}

// startRealTicks starts the virtual ticks of the real tickers on the
// clock of s, which starts.
//
//go:norace
func startRealTicks(s *sched) {
	for _, rk := range realTickersNow() {
		rk.mu.Lock()
		rk.next = s.now + rk.d
		rk.mu.Unlock()
	}
}

// tickReal runs after the virtual clock moved: each real ticker whose
// next tick it passed ticks once, and if one was sent the scheduler waits
// until no goroutine outside control runs (up to outsideWait), so that the
// ticker's goroutine has done its work when the test reads it.
//
//go:norace
func (s *sched) tickReal() {
	if realClocks.Load() == 0 {
		return
	}
	sent := false
	for _, rk := range realTickersNow() {
		rk.mu.Lock()
		if !rk.stopped && rk.next <= s.now {
			select {
			case rk.c <- s.base.Add(s.now):
				sent = true
			default:
			}
			rk.next += (s.now-rk.next)/rk.d*rk.d + rk.d
		}
		rk.mu.Unlock()
	}
	if !sent {
		return
	}
	realPaces.Add(1)
	start := monoNow()
	pause := 20 * time.Microsecond
	for {
		if busy, _ := s.foreignActive(); !busy {
			return
		}
		left := outsideWait - time.Since(start)
		if left <= 0 {
			return
		}
		if pause > left {
			pause = left
		}
		nap(pause)
		if pause < 5*time.Millisecond {
			pause *= 2
		}
	}
}
