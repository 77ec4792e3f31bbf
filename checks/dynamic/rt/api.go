package rt

// The instrumentation API. The rewriter (checks/dynamic/rewrite) replaces each
// synchronization operation in the code under test with one of these calls,
// imported under the name "interleavert". Each call is a scheduling point when
// the calling goroutine is controlled by an active schedule; otherwise it
// performs the real operation and nothing else.

import (
	"sync"
	"testing"
	"time"
)

// Go starts f as a goroutine (rewritten from a go statement; the rewriter
// evaluates the function value and arguments first, as the go statement did).
func Go(f func()) { go f() }

// Gosched yields (rewritten from runtime.Gosched).
func Gosched() { goschedReal() }

// Mutex.
func Lock(m *sync.Mutex)         { m.Lock() }
func Unlock(m *sync.Mutex)       { m.Unlock() }
func TryLock(m *sync.Mutex) bool { return m.TryLock() }

// RWMutex.
func WLock(m *sync.RWMutex)         { m.Lock() }
func WUnlock(m *sync.RWMutex)       { m.Unlock() }
func TryWLock(m *sync.RWMutex) bool { return m.TryLock() }
func RLock(m *sync.RWMutex)         { m.RLock() }
func RUnlock(m *sync.RWMutex)       { m.RUnlock() }
func TryRLock(m *sync.RWMutex) bool { return m.TryRLock() }

// LockerLock and LockerUnlock handle calls through the sync.Locker
// interface (including RWMutex.RLocker()).
func LockerLock(l sync.Locker)   { l.Lock() }
func LockerUnlock(l sync.Locker) { l.Unlock() }

// WaitGroup.
func WaitGroupAdd(wg *sync.WaitGroup, delta int) { wg.Add(delta) }
func WaitGroupDone(wg *sync.WaitGroup)           { wg.Done() }
func WaitGroupWait(wg *sync.WaitGroup)           { wg.Wait() }
func WaitGroupGo(wg *sync.WaitGroup, f func()) {
	wg.Add(1)
	Go(func() { defer WaitGroupDone(wg); f() })
}

// Once.
func OnceDo(o *sync.Once, f func()) { o.Do(f) }

// Cond. Wait is modelled as Unlock, park in the wait set, Lock; the
// scheduler chooses which waiter Signal wakes.
func CondWait(c *sync.Cond)      { c.Wait() }
func CondSignal(c *sync.Cond)    { c.Signal() }
func CondBroadcast(c *sync.Cond) { c.Broadcast() }

// Channels.
func Send[T any](ch chan<- T, v T)       { ch <- v }
func Recv[T any](ch <-chan T) T          { return <-ch }
func Recv2[T any](ch <-chan T) (T, bool) { v, ok := <-ch; return v, ok }
func Close[T any](ch chan<- T)           { close(ch) }

// Range replaces `for v := range ch`.
func Range[T any](ch <-chan T) func(yield func(T) bool) {
	return func(yield func(T) bool) {
		for {
			v, ok := Recv2(ch)
			if !ok || !yield(v) {
				return
			}
		}
	}
}

// SelectCase describes one case of a select for the scheduler.
type SelectCase struct {
	Ch   any  // the channel value (nil channel: never ready)
	Send bool // send case, else receive
}

func SendCase[T any](ch chan<- T) SelectCase { return SelectCase{Ch: ch, Send: true} }
func RecvCase[T any](ch <-chan T) SelectCase { return SelectCase{Ch: ch} }

// Select decides which case of a select runs: the index of a case, -1 for
// default, or -2 when the caller is not controlled (the select then runs as
// written). The rewriter turns
//
//	select { case v := <-a: X; case b <- x: Y; default: Z }
//
// into (keeping every line where it was)
//
//	{ _c0, _c1 := a, b; _k := interleavert.Select(true, interleavert.RecvCase(_c0), interleavert.SendCase(_c1)); select {
//	case v := <-interleavert.PickRecv(_k, 0, _c0): X; case interleavert.PickSend(_k, 1, _c1) <- x: Y
//	default: Z } }
//
// Under control only the chosen case gets a non-nil channel, and that
// channel is ready at once, so the real select takes exactly the chosen case
// (or default when -1 was chosen). For an unbuffered channel whose partner is
// parked in the scheduler, the Pick returns an adapter: PickRecv performs
// the real receive and returns a buffered channel holding the value (or a
// closed one); PickSend returns a buffered channel whose value a forwarder
// delivers to the real channel.
func Select(hasDefault bool, cases ...SelectCase) int { return -2 }

// PickRecv returns the channel the real select should receive from for
// case i: ch when uncontrolled, nil when another case was chosen.
func PickRecv[T any](chosen, i int, ch <-chan T) <-chan T {
	if chosen == -2 || chosen == i {
		return ch
	}
	return nil
}

// PickSend is PickRecv for a send case.
func PickSend[T any](chosen, i int, ch chan<- T) chan<- T {
	if chosen == -2 || chosen == i {
		return ch
	}
	return nil
}

// Atomic is a scheduling point placed before a sync/atomic call or a typed
// atomic method; addr is the address operated on. Then lets it sit inside an
// expression: interleavert.Then(interleavert.Atomic(&x), atomic.AddInt64(&x, 1)).
func Atomic(addr any) Point { return Point{} }

// Point is the value of a scheduling point used inside an expression.
type Point struct{}

// Then returns v; its first argument is evaluated (and schedules) first.
func Then[T any](_ Point, v T) T { return v }

// Time: a virtual clock under control, the real one otherwise.
func Sleep(d time.Duration)                           { time.Sleep(d) }
func After(d time.Duration) <-chan time.Time          { return time.After(d) }
func Tick(d time.Duration) <-chan time.Time           { return time.Tick(d) }
func NewTimer(d time.Duration) *time.Timer            { return time.NewTimer(d) }
func NewTicker(d time.Duration) *time.Ticker          { return time.NewTicker(d) }
func AfterFunc(d time.Duration, f func()) *time.Timer { return time.AfterFunc(d, f) }
func TimerStop(t *time.Timer) bool                    { return t.Stop() }
func TimerReset(t *time.Timer, d time.Duration) bool  { return t.Reset(d) }
func TickerStop(t *time.Ticker)                       { t.Stop() }
func TickerReset(t *time.Ticker, d time.Duration)     { t.Reset(d) }

// Testing hooks: t.Parallel is a no-op under control (the driver already
// runs one test at a time); t.Run runs the subtest as part of the caller's
// schedule.
func Parallel(t *testing.T)                                    { t.Parallel() }
func Run(t *testing.T, name string, f func(t *testing.T)) bool { return t.Run(name, f) }
