// The op vocabulary: what a controlled goroutine stops at, its request and reply.

package rt

import (
	"reflect"
	"sync"
	"time"
	"unsafe"
)

type opKind uint8

const (
	opNone opKind = iota
	opStart
	opGo
	opYield
	opAtomic
	opLock
	opUnlock
	opTryLock
	opWLock
	opWUnlock
	opTryWLock
	opRLock
	opRUnlock
	opTryRLock
	opLockerLock
	opLockerUnlock
	opWGAdd
	opWGWait
	opOnce
	opOnceDone
	opCondWait
	opCondPark
	opSignal
	opBroadcast
	opSend
	opRecv
	opClose
	opSelect
	opSleep
	opTimerNew
	opTimerStop
	opTimerReset
	opTickerStop
	opTickerReset
	opRun
	opRunWait
	opParallel
	opParallelWait
	opExit
	opAtomicLoad
	opNow
	opSyncWait
	opChanLen
	opGC
	opOsExit
	opBubbleEnd
)

var opNames = [...]string{
	opNone: "none", opStart: "start", opGo: "go", opYield: "Gosched", opAtomic: "atomic",
	opLock: "Mutex.Lock", opUnlock: "Mutex.Unlock", opTryLock: "Mutex.TryLock",
	opWLock: "RWMutex.Lock", opWUnlock: "RWMutex.Unlock", opTryWLock: "RWMutex.TryLock",
	opRLock: "RWMutex.RLock", opRUnlock: "RWMutex.RUnlock", opTryRLock: "RWMutex.TryRLock",
	opLockerLock: "Locker.Lock", opLockerUnlock: "Locker.Unlock", opWGAdd: "WaitGroup.Add", opWGWait: "WaitGroup.Wait",
	opOnce: "Once.Do", opOnceDone: "Once.Do return", opCondWait: "Cond.Wait", opCondPark: "Cond.Wait (parked)",
	opSignal: "Cond.Signal", opBroadcast: "Cond.Broadcast", opSend: "chan send", opRecv: "chan receive",
	opClose: "close", opSelect: "select", opSleep: "time.Sleep", opTimerNew: "timer create",
	opTimerStop: "Timer.Stop", opTimerReset: "Timer.Reset", opTickerStop: "Ticker.Stop", opTickerReset: "Ticker.Reset",
	opRun: "t.Run", opRunWait: "t.Run", opParallel: "t.Parallel", opParallelWait: "t.Run (parallel subtests)", opExit: "exit",
	opAtomicLoad: "atomic load", opNow: "time.Now", opSyncWait: "synctest.Wait",
	opChanLen: "chan len", opGC: "runtime.GC", opOsExit: "os.Exit", opBubbleEnd: "synctest.Test end",
}

func (o opKind) String() string { return opNames[o] }

// Reply modes.
const (
	mRun         uint8 = iota // perform the operation
	mPoll                     // try it without blocking (foreign partner?)
	mAbort                    // the schedule is over: unwind
	mSkip                     // do not perform the real operation
	mDump                     // capture your stack and arrive again
	mPollDefault              // select: try the receive cases, else take default
	mBlock                    // perform it for real, blocking, until done or recalled
)

type caseReq struct {
	ptr  unsafe.Pointer
	rv   reflect.Value
	send bool
}

type request struct {
	op         opKind
	obj        unsafe.Pointer
	rv         reflect.Value // channel
	cases      []caseReq
	hasDefault bool
	ctxTimer   bool          // opTimerNew: a context deadline's (deadlineTimer)
	ctxD       time.Duration // ... its WithTimeout's duration (0: none)
	d          time.Duration
	delta      int
	fn         func()
	locker     sync.Locker
	timerKind  uint8
	child      *gstate // opRunWait: the subtest awaited
	name       string  // opRun: the subtest's name
	pcs        [10]uintptr
	pollFailed bool
	readNow    bool // Now was called since the previous scheduling point
	nowOutside bool // opNow: a scheduling point as g was back from outside control (Decision.NowOutside)
	// addr and val: an atomic load's address and the value there (wordAt),
	// or a channel's and its length (ChanLen)
	addr unsafe.Pointer
	val  uint64
}

type reply struct {
	mode    uint8
	choice  int
	adapter bool
	gate    bool // wait after the channel operation (gstate.held)
	ok      bool
	child   *gstate
	ch      chan time.Time
	timer   *time.Timer
	ticker  *time.Ticker
	hb      *uint32       // the timer's happens-before word (see armed)
	recall  chan struct{} // mBlock: closed to take the goroutine back
}

func unlockOf(op opKind) opKind {
	switch op {
	case opLock:
		return opUnlock
	case opWLock:
		return opWUnlock
	case opRLock:
		return opRUnlock
	}
	return opNone
}

func hasSend(cs []caseReq) bool {
	for _, c := range cs {
		if c.send && c.ptr != nil {
			return true
		}
	}
	return false
}

func hasRecv(cs []caseReq) bool {
	for _, c := range cs {
		if !c.send && c.ptr != nil {
			return true
		}
	}
	return false
}
