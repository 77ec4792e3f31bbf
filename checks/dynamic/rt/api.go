package rt

// The instrumentation API. The rewriter (checks/dynamic/rewrite) replaces each
// synchronization operation in the code under test with one of these calls,
// imported under the name "interleavert". Each call is a scheduling point when
// the calling goroutine is controlled by an active schedule; otherwise it
// performs the real operation and nothing else.

import (
	"errors"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// Go starts f as a goroutine (rewritten from a go statement; the rewriter
// evaluates the function value and arguments first, as the go statement did).
// Under control the new goroutine is controlled too; its logical id is the
// next free one in creation order.
func Go(f func()) { goStart(f, false) }

// GoCall is Go for a go statement that calls a named function or method
// (`go f(x)`): the rewriter wraps the call in a closure, f. A dump taken
// under control leaves that closure's frame out, as go test's leaves out
// the wrapper the compiler makes for such a statement.
func GoCall(f func()) { goStart(f, true) }

//go:noinline
func goStart(f func(), wrapper bool) {
	g := current()
	if g == nil {
		goOutside(f) // join.go
		return
	}
	rep := g.call(&request{op: opGo})
	if rep.mode == mSkip {
		return
	}
	// call's frames: goStart, Go or GoCall, then the function with the go
	// statement (a dump names it in "created by", as go test's does).
	rep.child.goPC = g.req.pcs[2]
	rep.child.goWrapper = wrapper
	go childMain(rep.child, f)
}

// childMain is the body of a controlled goroutine.
func childMain(c *gstate, f func()) {
	setGid(c)
	defer func() { p := recover(); endOfGoroutine(); c.exit(p) }()
	c.call(&request{op: opStart})
	f()
}

// endMu orders the end of every controlled goroutine before the end of its
// schedule (and so before the next schedule): each goroutine passes through
// it when it ends, after its last access, and the runner passes through it
// when the schedule is over. It creates no edge between accesses made while
// the goroutines still run, so races inside a schedule stay visible, while
// state left behind by one schedule is not reported as racing with the next.
var endMu sync.Mutex

func endOfGoroutine() {
	endMu.Lock()
	//lint:ignore SA2001 the empty critical section is the point: a happens-before edge
	endMu.Unlock()
}

//go:norace
func setGid(c *gstate) { c.gid = goid() }

// exit records how the goroutine ended and tells the scheduler.
//
//go:norace
func (g *gstate) exit(p any) {
	g.unlockThread()
	g.joinForward()
	if p != nil && p != errAbort {
		g.panicked = true
		g.panicVal = panicString(p)
		g.panicStack = stackOf()
		g.panicSite = panicSite()
	}
	if s := active; s != nil && s.bubble > 0 {
		bubbleRelease() // its last work happens before a later Wait
	}
	g.arriveExit()
}

// Gosched yields (rewritten from runtime.Gosched).
func Gosched() {
	if g := current(); g != nil {
		g.call(&request{op: opYield})
		return
	}
	goschedReal()
}

// lockOp is the scheduling point of a lock operation: false means skip the
// real operation (an unlock the shadow state says is not held, while a
// schedule is being aborted or after a fatal misuse was reported).
func lockOp(op opKind, p unsafe.Pointer) (controlled, perform bool) {
	g := current()
	if g == nil {
		lockedOutside(op)
		return false, true
	}
	return true, g.call(&request{op: op, obj: p}).mode != mSkip
}

// tryLockOp is the scheduling point of a TryLock: granted says the shadow
// state grants it, and the real TryLock is made only then. The shadow
// decides, not the real lock: a writer waiting for readers to leave calls
// the real Lock only when granted, so the real TryRLock would let a new
// reader in beside it, where Go's shuts it out (and the reader's RUnlock
// was then of a lock the shadow never counted: xsync's RBMutex).
func tryLockOp(op opKind, p unsafe.Pointer) (controlled, granted bool) {
	g := current()
	if g == nil {
		lockedOutside(op)
		return false, true
	}
	rep := g.call(&request{op: op, obj: p})
	return true, rep.mode != mSkip && rep.ok
}

// Mutex.
func Lock(m *sync.Mutex) {
	if _, ok := lockOp(opLock, unsafe.Pointer(m)); ok {
		m.Lock()
	}
}
func Unlock(m *sync.Mutex) {
	if _, ok := lockOp(opUnlock, unsafe.Pointer(m)); ok {
		m.Unlock()
	}
}
func TryLock(m *sync.Mutex) bool {
	if c, ok := tryLockOp(opTryLock, unsafe.Pointer(m)); ok {
		return tookOutside(c, m.TryLock())
	}
	return false
}

// RWMutex.
func WLock(m *sync.RWMutex) {
	if _, ok := lockOp(opWLock, unsafe.Pointer(m)); ok {
		m.Lock()
	}
}
func WUnlock(m *sync.RWMutex) {
	if _, ok := lockOp(opWUnlock, unsafe.Pointer(m)); ok {
		m.Unlock()
	}
}
func TryWLock(m *sync.RWMutex) bool {
	if c, ok := tryLockOp(opTryWLock, unsafe.Pointer(m)); ok {
		return tookOutside(c, m.TryLock())
	}
	return false
}
func RLock(m *sync.RWMutex) {
	if _, ok := lockOp(opRLock, unsafe.Pointer(m)); ok {
		m.RLock()
	}
}
func RUnlock(m *sync.RWMutex) {
	if _, ok := lockOp(opRUnlock, unsafe.Pointer(m)); ok {
		m.RUnlock()
	}
}
func TryRLock(m *sync.RWMutex) bool {
	if c, ok := tryLockOp(opTryRLock, unsafe.Pointer(m)); ok {
		return tookOutside(c, m.TryRLock())
	}
	return false
}

// LockerLock and LockerUnlock handle calls through the sync.Locker
// interface (including RWMutex.RLocker()).
func LockerLock(l sync.Locker) {
	if g := current(); g != nil {
		if g.call(&request{op: opLockerLock, locker: l}).mode == mSkip {
			return
		}
	} else {
		lockedOutside(opLockerLock)
	}
	l.Lock()
}
func LockerUnlock(l sync.Locker) {
	if g := current(); g != nil {
		if g.call(&request{op: opLockerUnlock, locker: l}).mode == mSkip {
			return
		}
	} else {
		lockedOutside(opLockerUnlock)
	}
	l.Unlock()
}

// WaitGroup.
func WaitGroupAdd(wg *sync.WaitGroup, delta int) {
	if g := current(); g != nil {
		g.call(&request{op: opWGAdd, obj: unsafe.Pointer(wg), delta: delta})
	}
	wg.Add(delta)
}
func WaitGroupDone(wg *sync.WaitGroup) {
	if g := current(); g != nil {
		g.call(&request{op: opWGAdd, obj: unsafe.Pointer(wg), delta: -1})
	}
	wg.Done()
}
func WaitGroupWait(wg *sync.WaitGroup) {
	if g := current(); g != nil {
		if g.call(&request{op: opWGWait, obj: unsafe.Pointer(wg)}).ok {
			// What sync.WaitGroup.Wait says when it wakes to a count
			// an Add raised again (the real Wait would block).
			panic("sync: WaitGroup is reused before previous Wait has returned")
		}
	}
	wg.Wait()
}
func WaitGroupGo(wg *sync.WaitGroup, f func()) {
	WaitGroupAdd(wg, 1)
	Go(func() { defer WaitGroupDone(wg); f() })
}

// Once.
func OnceDo(o *sync.Once, f func()) {
	g := current()
	if g == nil {
		o.Do(f)
		return
	}
	if !g.call(&request{op: opOnce, obj: unsafe.Pointer(o)}).ok {
		o.Do(f) // already done
		return
	}
	defer onceDone(o)
	o.Do(f)
}

// OnceDoPackage is OnceDo for a Once that is a package-level variable (or
// a field of one): the goroutines f starts are daemons (gstate.daemon),
// as fasthttp's date updater is: once per process, running for its life.
func OnceDoPackage(o *sync.Once, f func()) {
	OnceDo(o, func() {
		if g := current(); g != nil {
			g.daemonOnce(1)
			defer g.daemonOnce(-1)
		} else {
			// Outside control (kcp-go's timer goroutine flushing a
			// session starts its process-wide workers): the goroutines
			// its go statements start join as daemons (goOutside).
			id := goid()
			outsideOnce(id, 1)
			defer outsideOnce(id, -1)
		}
		f()
	})
}

//go:norace
func (g *gstate) daemonOnce(d int) { g.inDaemonOnce += d }

func onceDone(o *sync.Once) {
	if g := current(); g != nil {
		g.call(&request{op: opOnceDone, obj: unsafe.Pointer(o)})
	}
}

// Cond. Wait is modelled as Unlock, park in the wait set, Lock; the
// scheduler chooses which waiter Signal wakes.
func CondWait(c *sync.Cond) {
	g := current()
	if g == nil {
		c.Wait()
		return
	}
	if g.call(&request{op: opCondWait, obj: unsafe.Pointer(c), locker: c.L}).mode != mSkip {
		c.L.Unlock()
	}
	g.call(&request{op: opCondPark, obj: unsafe.Pointer(c)})
	LockerLock(c.L)
}
func CondSignal(c *sync.Cond) {
	if g := current(); g != nil {
		g.call(&request{op: opSignal, obj: unsafe.Pointer(c)})
	} else {
		signalOutside(c, false)
	}
	c.Signal()
}
func CondBroadcast(c *sync.Cond) {
	if g := current(); g != nil {
		g.call(&request{op: opBroadcast, obj: unsafe.Pointer(c)})
	} else {
		signalOutside(c, true)
	}
	c.Broadcast()
}

// chanPtr identifies a channel (nil for a nil channel).
func chanPtr(rv reflect.Value) unsafe.Pointer {
	if !rv.IsValid() || rv.Kind() != reflect.Chan || rv.IsNil() {
		return nil
	}
	return rv.UnsafePointer()
}

// Channels.
func Send[T any](ch chan<- T, v T) {
	g := current()
	if g == nil {
		ch <- v
		return
	}
	rv := reflect.ValueOf(ch)
	req := request{op: opSend, obj: chanPtr(rv), rv: rv}
	for {
		rep := g.call(&req)
		if rep.mode == mPoll {
			select {
			case ch <- v:
				return
			default:
				req.pollFailed = true
				continue
			}
		}
		if rep.mode == mBlock {
			select {
			case ch <- v:
				return
			case <-rep.recall:
				req.pollFailed = true
				continue
			}
		}
		ch <- v
		g.pass()
		return
	}
}

func Recv[T any](ch <-chan T) T { v, _ := Recv2(ch); return v }

func Recv2[T any](ch <-chan T) (T, bool) {
	g := current()
	if g == nil {
		v, ok := <-ch
		return v, ok
	}
	rv := reflect.ValueOf(ch)
	req := request{op: opRecv, obj: chanPtr(rv), rv: rv}
	for {
		rep := g.call(&req)
		if rep.mode == mPoll {
			select {
			case v, ok := <-ch:
				return v, ok
			default:
				req.pollFailed = true
				continue
			}
		}
		if rep.mode == mBlock {
			select {
			case v, ok := <-ch:
				return v, ok
			case <-rep.recall:
				req.pollFailed = true
				continue
			}
		}
		v, ok := <-ch
		g.pass()
		return v, ok
	}
}

func Close[T any](ch chan<- T) {
	if g := current(); g != nil {
		rv := reflect.ValueOf(ch)
		if g.call(&request{op: opClose, obj: chanPtr(rv), rv: rv}).mode == mSkip {
			return
		}
	}
	close(ch)
}

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
//	{ _c0, _c1, _v1 := a, b, x; _k := interleavert.Select(true, interleavert.RecvCase(_c0), interleavert.SendCase(_c1)); select {
//	case v := <-interleavert.PickRecv(_k, 0, _c0): X; case interleavert.PickSend(_k, 1, _c1) <- (_v1): interleavert.SelectSent(); Y
//	default: Z } }
//
// (channels and send values evaluated on entry, in source order, as in Go)
//
// Under control only the chosen case gets a non-nil channel, and that
// channel is ready at once, so the real select takes exactly the chosen case
// (or default when -1 was chosen). For an unbuffered channel whose partner is
// parked in the scheduler, the Pick returns an adapter: PickRecv performs
// the real receive and returns a buffered channel holding the value (or a
// closed one); PickSend returns a buffered channel whose value a forwarder
// delivers to the real channel.
//
// Semantics under control: the scheduler only picks among cases that are
// ready by its shadow state (buffer room or data, a closed channel, a parked
// partner); -1 (default) is returned only when no case is ready and the
// select has a default; a select with no ready case and no default parks
// until one is. A select stuck on channels fed from outside the scheduler's
// view is polled (its receive cases are tried without blocking) before a
// deadlock is declared; a receive found that way is delivered through a
// PickRecv adapter as well.
func Select(hasDefault bool, cases ...SelectCase) int {
	g := current()
	if g == nil {
		return -2
	}
	req := request{op: opSelect, hasDefault: hasDefault, cases: make([]caseReq, len(cases))}
	for i, c := range cases {
		rv := reflect.ValueOf(c.Ch)
		req.cases[i] = caseReq{ptr: chanPtr(rv), rv: rv, send: c.Send}
	}
	for {
		rep := g.call(&req)
		if rep.mode == mBlock {
			// Wait for real on the receive cases, or to be recalled.
			sc := []reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(rep.recall)}}
			var idx []int
			for i, c := range req.cases {
				if !c.send && c.ptr != nil {
					sc = append(sc, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: c.rv})
					idx = append(idx, i)
				}
			}
			k, v, ok := reflect.Select(sc)
			if k == 0 {
				req.pollFailed = true
				continue
			}
			g.setPick(false, true, v, ok)
			return idx[k-1]
		}
		if rep.mode == mPoll || rep.mode == mPollDefault {
			var sc []reflect.SelectCase
			var idx []int
			for i, c := range req.cases {
				if !c.send && c.ptr != nil {
					sc = append(sc, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: c.rv})
					idx = append(idx, i)
				}
			}
			sc = append(sc, reflect.SelectCase{Dir: reflect.SelectDefault})
			k, v, ok := reflect.Select(sc)
			if k == len(sc)-1 && rep.mode == mPollDefault {
				g.setPick(false, false, reflect.Value{}, false)
				return -1
			}
			if k == len(sc)-1 {
				req.pollFailed = true
				continue
			}
			g.setPick(false, true, v, ok)
			return idx[k]
		}
		g.setPick(rep.adapter, false, reflect.Value{}, false)
		return rep.choice
	}
}

//go:norace
func (g *gstate) setPick(adapter, polled bool, v reflect.Value, ok bool) {
	g.pickAdapter, g.pickPolled, g.pickVal, g.pickOK = adapter, polled, v, ok
}

//go:norace
func (g *gstate) takePick() (adapter, polled bool, v reflect.Value, ok bool) {
	adapter, polled, v, ok = g.pickAdapter, g.pickPolled, g.pickVal, g.pickOK
	g.pickAdapter, g.pickPolled, g.pickVal = false, false, reflect.Value{}
	return
}

// PickRecv returns the channel the real select should receive from for
// case i: ch when uncontrolled, nil when another case was chosen.
func PickRecv[T any](chosen, i int, ch <-chan T) <-chan T {
	if chosen == -2 {
		return ch
	}
	if chosen != i {
		return nil
	}
	g := current()
	if g == nil {
		return ch
	}
	adapter, polled, pv, pok := g.takePick()
	switch {
	case polled:
		ad := make(chan T, 1)
		if pok {
			var x T
			if pv.IsValid() {
				reflect.ValueOf(&x).Elem().Set(pv)
			}
			ad <- x
		} else {
			close(ad)
		}
		return ad
	case adapter:
		v, ok := <-ch
		g.pass()
		ad := make(chan T, 1)
		if ok {
			ad <- v
		} else {
			close(ad)
		}
		return ad
	}
	return ch
}

// PickSend is PickRecv for a send case.
func PickSend[T any](chosen, i int, ch chan<- T) chan<- T {
	if chosen == -2 {
		return ch
	}
	if chosen != i {
		return nil
	}
	g := current()
	if g == nil {
		return ch
	}
	if adapter, _, _, _ := g.takePick(); adapter {
		// A forwarder completes the send with the parked partner; the
		// case body joins it first (SelectSent), so that what follows the
		// send is ordered after it, as in Go.
		ad := make(chan T, 1)
		done := make(chan struct{})
		go func() { ch <- <-ad; close(done) }()
		g.setForward(done)
		return ad
	}
	return ch
}

// SelectSent starts the body of a select's send case: the send is then
// complete, and what the receiver did before receiving happens before what
// follows, as in Go.
func SelectSent() {
	if g := current(); g != nil {
		g.joinForward()
		g.pass()
	}
}

//go:norace
func (g *gstate) setForward(done chan struct{}) { g.forward = done }

// ChanLen is len(ch) of a channel (rewritten): a scheduling point, so that
// a goroutine that reads how full a buffer is may do so before or after
// the others' sends and receives; without it, the reader ran on from its
// previous scheduling point and always read the buffer as it was then.
// A loop of them polls, as one of atomic loads does (spinOp).
func ChanLen(ch any) int {
	rv := reflect.ValueOf(ch)
	if g := current(); g != nil {
		p := chanPtr(rv)
		g.call(&request{op: opChanLen, obj: p, addr: p, val: uint64(rv.Len())})
	}
	return rv.Len()
}

// joinForward waits for the forwarder of g's last select send, if any.
//
//go:norace
func (g *gstate) joinForward() {
	if d := g.forward; d != nil {
		g.forward = nil
		<-d
	}
}

// Atomic is a scheduling point placed before a sync/atomic call or a typed
// atomic method; addr is the address operated on. Then lets it sit inside an
// expression: interleavert.Then(interleavert.Atomic(&x), atomic.AddInt64(&x, 1)).
func Atomic(addr any) Point {
	if g := current(); g != nil {
		g.call(&request{op: opAtomic})
	}
	return Point{}
}

// AtomicLoad is Atomic for an operation that only reads (Load): a loop
// of them is a polling loop, which lets the virtual clock move.
func AtomicLoad(addr any) Point {
	if g := current(); g != nil {
		p, v := wordAt(addr)
		g.call(&request{op: opAtomicLoad, addr: p, val: v})
	}
	return Point{}
}

// wordAt returns the address addr points to and the value there (its
// first 8 bytes at most, two words of an atomic.Value), as the load about
// to run will read it: the livelock rule's evidence (sched.freshLoad). A
// nil address is one the rewrite could not name.
//
//go:norace
//go:nocheckptr
func wordAt(addr any) (unsafe.Pointer, uint64) {
	t := reflect.TypeOf(addr)
	if t == nil || t.Kind() != reflect.Pointer {
		return nil, 0
	}
	p := (*[2]unsafe.Pointer)(unsafe.Pointer(&addr))[1]
	if p == nil {
		return nil, 0
	}
	switch sz := t.Elem().Size(); {
	case sz >= 16 && uintptr(p)%8 == 0:
		w := (*[2]uint64)(p)
		return p, w[0] ^ w[1]*0x9e3779b97f4a7c15
	case sz >= 8 && uintptr(p)%8 == 0:
		return p, *(*uint64)(p)
	case sz >= 4 && uintptr(p)%4 == 0:
		return p, uint64(*(*uint32)(p))
	}
	return p, 0
}

// Point is the value of a scheduling point used inside an expression.
type Point struct{}

// Then returns v; its first argument is evaluated (and schedules) first.
func Then[T any](_ Point, v T) T { return v }

// Last returns v; its second argument, evaluated after v, is the scheduling
// point (an atomic operation's point after the calls in its arguments).
func Last[T any](v T, _ Point) T { return v }

// Time: a virtual clock under control, the real one otherwise. The virtual
// clock advances only when no controlled goroutine can run, straight to the
// earliest deadline. Timers made under control are &time.Timer{C: ch} /
// &time.Ticker{C: ch} values known to the scheduler: use them only through
// TimerStop/TimerReset/TickerStop/TickerReset (their own methods panic).
func Sleep(d time.Duration) {
	if g := current(); g != nil {
		g.call(&request{op: opSleep, d: d})
		return
	}
	if d > 0 && !noSchedule() {
		foreignSleep(d)
		return
	}
	time.Sleep(d)
}
func After(d time.Duration) <-chan time.Time {
	if g := current(); g != nil {
		return armed(g.call(&request{op: opTimerNew, timerKind: tkAfter, d: d})).ch
	}
	return time.After(d)
}
func Tick(d time.Duration) <-chan time.Time {
	if d <= 0 {
		return nil
	}
	if current() != nil {
		return NewTicker(d).C
	}
	if noSchedule() {
		return newRealTicker(d).c // never stopped
	}
	return time.Tick(d)
}
func NewTimer(d time.Duration) *time.Timer {
	if g := current(); g != nil {
		return armed(g.call(&request{op: opTimerNew, timerKind: tkTimer, d: d})).timer
	}
	return time.NewTimer(d)
}
func NewTicker(d time.Duration) *time.Ticker {
	if g := current(); g != nil {
		if d <= 0 {
			panic("non-positive interval for NewTicker")
		}
		return armed(g.call(&request{op: opTimerNew, timerKind: tkTicker, d: d})).ticker
	}
	if noSchedule() {
		return newRealTickerValue(d)
	}
	return time.NewTicker(d)
}
func AfterFunc(d time.Duration, f func()) *time.Timer {
	if g := current(); g != nil {
		return armed(g.call(&request{op: opTimerNew, timerKind: tkFunc, d: d, fn: f})).timer
	}
	return time.AfterFunc(d, f)
}

// armed gives the timer of rep the happens-before edge the Go runtime
// makes from the code that arms (or resets) a timer to its firing: the
// AfterFunc callback, or the send on the timer's channel, starts with an
// atomic load of the word stored here.
func armed(rep reply) reply {
	if rep.hb != nil {
		atomic.StoreUint32(rep.hb, 1)
	}
	return rep
}

// fired is the other end of armed, on the goroutine that fires the timer.
func fired(hb *uint32) {
	if hb != nil {
		atomic.LoadUint32(hb)
	}
}

func TimerStop(t *time.Timer) bool {
	if g := current(); g != nil {
		if rep := g.call(&request{op: opTimerStop, obj: unsafe.Pointer(t)}); rep.mode != mSkip {
			return rep.ok
		}
	}
	if b := boxOf(t); b != nil {
		return b.realReset(0, false) // a virtual timer outside control
	}
	return t.Stop()
}
func TimerReset(t *time.Timer, d time.Duration) bool {
	if g := current(); g != nil {
		if rep := armed(g.call(&request{op: opTimerReset, obj: unsafe.Pointer(t), d: d})); rep.mode != mSkip {
			return rep.ok
		}
	}
	if b := boxOf(t); b != nil {
		return b.realReset(d, true) // a virtual timer outside control
	}
	return t.Reset(d)
}
func TickerStop(t *time.Ticker) {
	if g := current(); g != nil {
		if g.call(&request{op: opTickerStop, obj: unsafe.Pointer(t)}).mode != mSkip {
			return
		}
	}
	if rk := realTickerOf(t); rk != nil {
		rk.stop()
		return
	}
	t.Stop()
}
func TickerReset(t *time.Ticker, d time.Duration) {
	if g := current(); g != nil {
		if d <= 0 {
			panic("non-positive interval for Ticker.Reset")
		}
		if armed(g.call(&request{op: opTickerReset, obj: unsafe.Pointer(t), d: d})).mode != mSkip {
			return
		}
	}
	if rk := realTickerOf(t); rk != nil {
		rk.reset(d)
		return
	}
	t.Reset(d)
}

// Parallel is t.Parallel. Under control, in a subtest started by its
// parent test's own t.Run, it does what go test does, under the scheduler:
// the parent's t.Run returns at once, and the subtest waits until the
// parent's function has returned, then runs alongside its parallel
// siblings; the parent's test ends (cleanups, t.Run returning to its own
// parent) after them. Elsewhere under control (the schedule's top-level
// test, which the driver runs alone) it does nothing.
func Parallel(t *testing.T) {
	g := current()
	if g == nil {
		t.Parallel()
		return
	}
	p := goParallel(g, t)
	if p == nil {
		return
	}
	g.call(&request{op: opParallel})
	// The parent closed its barrier before its function ended: the edge
	// go test makes between the two.
	if b := barrierOf(p); b != nil {
		<-b
	}
}

// runHelpers counts the goroutines calling t.Run for controlled
// goroutines; a schedule waits for them before its test function returns,
// as the testing package requires of every t.Run call.
var runHelpers sync.WaitGroup

// Run under control runs f as a subtest on a new controlled goroutine; the
// caller waits ("t.Run") until f returns or calls t.Parallel. The subtest's
// cleanups run under control when it ends. The real t.Run is called from a
// helper goroutine, so that a parallel subtest can keep its test goroutine
// while its parent goes on.
func Run(t *testing.T, name string, f func(t *testing.T)) bool {
	g := current()
	if g == nil {
		return t.Run(name, f)
	}
	if !runSelected(t, name) {
		return true // go test's t.Run of a subtest -run leaves out
	}
	rep := g.call(&request{op: opRun, name: name})
	if rep.mode == mSkip {
		return rep.ok // a top-level subtest Config.Test leaves out: true
	}
	c := rep.child
	prepareRun(g, c, t)
	res := make(chan runEnd, 1)
	runHelpers.Add(1)
	go func() {
		defer runHelpers.Done()
		returned := false
		defer func() {
			if !returned {
				res <- runEnd{goexit: true}
			}
		}()
		ok := t.Run(name, func(t *testing.T) { runSubtest(c, t, f) })
		returned = true
		res <- runEnd{ok: ok}
	}()
	awaitRun(g, c, res)
	if ch := pausedOf(c); ch != nil {
		<-ch // it called t.Parallel: t.Run returns now, as in go test
		return true
	}
	end := <-res
	if end.goexit {
		// The subtest called FailNow of this test (or an ancestor's):
		// go test's t.Run ends its caller with runtime.Goexit, and so
		// does this one, so the test ends as go test ends it.
		runtime.Goexit()
	}
	return end.ok
}

// awaitRun waits under control for the subtest c to end. When the
// schedule ends meanwhile and c has exited, it waits for the real t.Run
// to return before unwinding, as go test's t.Run does: the test's
// testing.T must not end while the subtest's is still reporting.
func awaitRun(g, c *gstate, res chan runEnd) {
	defer func() {
		if p := recover(); p != nil {
			if p == errAbort && exitedOf(c) && pausedOf(c) == nil {
				<-res
			}
			panic(p)
		}
	}()
	g.call(&request{op: opRunWait, child: c})
}

// runEnd is how the real t.Run of a controlled subtest ended: it returned
// ok, or it called runtime.Goexit (goexit), which go test's t.Run does when
// the subtest called FailNow of a parent test.
type runEnd struct{ ok, goexit bool }

// Runner is what has testing.T's Run: testify's suite runs each of its
// methods through one (suite.Run's runTests).
type Runner interface {
	Run(name string, f func(t *testing.T)) bool
}

// RunRunner is r.Run(name, f): when r is a *testing.T, f runs under control
// as Run runs a subtest, so a suite method's body is searched like a test's.
func RunRunner(r Runner, name string, f func(t *testing.T)) bool {
	if t, ok := r.(*testing.T); ok {
		return Run(t, name, f)
	}
	return r.Run(name, f)
}

// runSubtest is the body of a controlled subtest, on its test goroutine.
func runSubtest(c *gstate, t *testing.T, f func(t *testing.T)) {
	setGid(c)
	c.tb = t
	exited := false
	finish := func(p any) {
		if exited {
			return
		}
		exited = true
		if c.sub != nil && t.Failed() {
			c.sub.failed = true // on c, the goroutine that runs
		}
		if ch := finishedOf(c); ch != nil {
			close(ch)
		}
		endOfGoroutine()
		c.exit(p)
	}
	returned := false
	defer func() {
		p := recover()
		if p == nil && !returned && pausedOf(c) != nil && !t.Failed() && !t.Skipped() {
			// A parallel subtest ended by runtime.Goexit not of its own
			// FailNow or SkipNow (a parent's FailNow): go test panics,
			// but the real t.Run here, not told of t.Parallel, would
			// only fail the subtest.
			p = errParallelGoexit
		}
		if p == nil {
			p = protect(func() { waitParallel(c) }, finish)
		}
		if p == nil {
			cancelTestContext(t)
			p = runCleanups(c, finish)
		}
		finish(p)
	}()
	c.call(&request{op: opStart})
	f(t)
	returned = true
}

// errParallelGoexit is go test's panic when a parallel subtest's goroutine
// ends by runtime.Goexit while its test is not finished (testing's
// errNilPanicOrGoexit).
var errParallelGoexit = errors.New("test executed panic(nil) or runtime.Goexit")

// waitParallel ends g's test function: it opens the barrier of g's
// parallel subtests and waits for them, as go test does before running the
// test's cleanups.
func waitParallel(g *gstate) {
	kids := kidsOf(g)
	if len(kids) == 0 {
		return
	}
	close(barrierOf(g))
	g.call(&request{op: opParallelWait})
	for _, k := range kids {
		<-finishedOf(k) // the edge go test makes from their end to the test's
	}
}

// Cleanup is t.Cleanup(f) (rewritten from it on a *testing.T, *testing.B,
// *testing.F or testing.TB). Under control, when tb is the test of a
// controlled goroutine of the schedule (a schedule's test or a subtest), f
// runs under the scheduler when that test's function returns, before the
// schedule ends: goroutines the cleanup stops are not leaks, and what the
// cleanup does is scheduled like the rest. Otherwise it is tb.Cleanup(f).
func Cleanup(tb testing.TB, f func()) {
	if g := current(); g != nil && addCleanup(tb, f) {
		return
	}
	tb.Cleanup(f)
}

// Cleaner is what has testing.TB's Cleanup: a test helper's own interface
// for the test it is given (miniredis's Tester) has it.
type Cleaner interface {
	Cleanup(f func())
}

// CleanupCleaner is c.Cleanup(f) (rewritten from a call of Cleanup(func())
// on an interface other than testing.TB): when c holds a testing.TB, as
// Cleanup, so a helper's cleanup runs inside the schedule too.
func CleanupCleaner(c Cleaner, f func()) {
	if tb, ok := c.(testing.TB); ok {
		Cleanup(tb, f)
		return
	}
	c.Cleanup(f)
}

// addCleanup registers f with the live goroutine whose test is tb.
//
//go:norace
func addCleanup(tb testing.TB, f func()) bool {
	g := testGoroutine(tb)
	if g == nil {
		return false
	}
	g.cleanups = append(g.cleanups, f)
	return true
}

// testGoroutine is the live goroutine of the schedule whose test is tb,
// which Cleanup registers tb's cleanups with (nil: none).
//
//go:norace
func testGoroutine(tb testing.TB) *gstate {
	if s := active; s != nil && tb != nil {
		for _, g := range s.gs {
			if g.tb == tb && !g.exited {
				return g
			}
		}
	}
	return nil
}

// takeCleanup removes and returns the cleanup g's test registered last.
//
//go:norace
func takeCleanup(g *gstate) func() {
	n := len(g.cleanups)
	if n == 0 {
		return nil
	}
	f := g.cleanups[n-1]
	g.cleanups = g.cleanups[:n-1]
	return f
}

// Exit is os.Exit. Under control it first records the schedule as failed,
// with the calling site and the decisions so far (os.Exit in a test ends
// the test binary without a word from the testing package), then exits.
func Exit(code int) {
	if g := current(); g != nil {
		exitUnderControl(g, code)
	}
	os.Exit(code)
}

// exitUnderControl hands the exit to S, which records the result and
// ends the process (osExit): the result is S's state, and reading it here
// would race, for the race detector, with S's writes (its hand-offs are
// invisible to it: go-deadlock v0.3.9's exit from a lock-timeout callback
// was noted as "a data race of interleave's own runtime" in siteAt).
//
//go:norace
func exitUnderControl(g *gstate, code int) {
	site := ""
	var pcs [16]uintptr
	n := runtime.Callers(2, pcs[:])
	for _, pc := range pcs[:n] {
		if site = userSite(pc); site != "" {
			break
		}
	}
	g.exitCode, g.exitSite, g.exitStack = code, site, stackOf()
	g.call(&request{op: opOsExit})
}

// osExit records g's os.Exit as the schedule's result and ends the
// process with its code.
//
//go:norace
func (s *sched) osExit(g *gstate) {
	res := s.result()
	res.Outcome = "fatal"
	res.Message = "os.Exit(" + strconv.Itoa(g.exitCode) + ") called during the test: the test binary ends without reporting"
	res.Site = g.exitSite
	res.Goroutines = []GoroutineState{{ID: g.id, Op: "os.Exit", Site: g.exitSite, Stack: g.exitStack}}
	writeResult(res)
	rawStderr(res.Message + " (schedule " + strconv.Itoa(s.index) + ")\n")
	os.Exit(g.exitCode)
}
