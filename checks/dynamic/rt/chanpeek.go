package rt

import (
	"reflect"
	"runtime"
	"unsafe"
)

// A channel closed outside control (inside the standard library's
// context, by a dependency) must look closed to the scheduler. The runtime
// keeps the flag in the channel's header, after the buffer count, size and
// pointer and the element size; that prefix of runtime.hchan has not
// changed since Go 1.0. hchanPrefix mirrors it, and peekOK records that a
// check at start-up read the flag right on this toolchain (otherwise the
// shadow state alone decides, as before).
type hchanPrefix struct {
	qcount   uint
	dataqsiz uint
	buf      unsafe.Pointer
	elemsize uint16
	closed   uint32
}

var peekOK = func() bool {
	open, shut := make(chan int, 3), make(chan int)
	open <- 1
	close(shut)
	o := (*hchanPrefix)(reflect.ValueOf(open).UnsafePointer())
	c := (*hchanPrefix)(reflect.ValueOf(shut).UnsafePointer())
	return o.qcount == 1 && o.dataqsiz == 3 && o.elemsize == uint16(unsafe.Sizeof(int(0))) && o.closed == 0 &&
		c.qcount == 0 && c.dataqsiz == 0 && c.closed != 0
}()

// closedForReal reports whether channel p (non-nil) is closed, by its
// header. (No pointer check: p is a channel's, and enabled asks it for
// every blocked goroutine at every decision, where the check, on for
// -race, took a fifth of the scheduler's time with 3,000 goroutines.)
//
//go:norace
//go:nocheckptr
func closedForReal(p unsafe.Pointer) bool {
	return peekOK && (*hchanPrefix)(p).closed != 0
}

// A controlled goroutine's send to a receiver outside control (testify's
// Eventually calls an API from a goroutine of its own, which waits for the
// reply) can complete although no partner is parked in the shadow. The
// runtime keeps the goroutines waiting on an unbuffered channel in two
// queues after the header above (and, since Go 1.23, a timer pointer);
// hchanQueues mirrors that layout, and queuesOK records that a check at
// start-up saw a waiting receiver and a waiting sender where expected.
type hchanQueues struct {
	hchanPrefix
	timer    unsafe.Pointer
	elemtype unsafe.Pointer
	sendx    uint
	recvx    uint
	recvq    [2]unsafe.Pointer // first, last
	sendq    [2]unsafe.Pointer
}

var queuesOK = func() bool {
	n := runtime.NumGoroutine()
	ok := checkQueues()
	// The check's goroutines end right after their channel operation:
	// let them, so that they do not count in the driver's baseline of
	// goroutines (a leftover of a schedule would hide behind them).
	for i := 0; i < 100000 && runtime.NumGoroutine() > n; i++ {
		runtime.Gosched()
	}
	return ok
}()

// checkQueues looks for a waiting receiver and a waiting sender where
// hchanQueues expects them.
func checkQueues() bool {
	if !peekOK {
		return false
	}
	ch := make(chan int)
	q := (*hchanQueues)(reflect.ValueOf(ch).UnsafePointer())
	if waiting(q, true) || waiting(q, false) {
		return false
	}
	go func() { <-ch }()
	if !awaitQueue(q, true) || waiting(q, false) {
		return false
	}
	ch <- 1
	go func() { ch <- 1 }()
	if !awaitQueue(q, false) || waiting(q, true) {
		return false
	}
	<-ch
	return !waiting(q, true) && !waiting(q, false)
}

// awaitQueue waits (a bounded while) for a goroutine to wait in the
// receive (or send) queue.
func awaitQueue(q *hchanQueues, recv bool) bool {
	for i := 0; i < 100000; i++ {
		if waiting(q, recv) {
			return true
		}
		runtime.Gosched()
	}
	return false
}

//go:norace
func waiting(q *hchanQueues, recv bool) bool {
	if recv {
		return q.recvq[0] != nil
	}
	return q.sendq[0] != nil
}

// waiterForReal reports whether a goroutine waits for real on unbuffered
// channel p to complete a send (a receiver) or a receive (a sender). (No
// pointer check, as closedForReal.)
//
//go:norace
//go:nocheckptr
func waiterForReal(p unsafe.Pointer, send bool) bool {
	return queuesOK && waiting((*hchanQueues)(p), send)
}

// lenCap returns the length and capacity of channel p (non-nil) as
// rv.Len and rv.Cap do, read from its header when its layout is known:
// enabled asks for them for every blocked goroutine at every decision,
// and reflect checked pointers each time. A timer's channel, which the
// runtime shows as unbuffered, is asked through rv.
//
//go:norace
//go:nocheckptr
func lenCap(p unsafe.Pointer, rv reflect.Value) (int, int) {
	if queuesOK {
		if q := (*hchanQueues)(p); q.timer == nil {
			return int(q.qcount), int(q.dataqsiz)
		}
	}
	return rv.Len(), rv.Cap()
}
