package good

import "sync/atomic"

// eventLog is recycled through a free list once its last reference is
// dropped (x/net/trace's eventLog): reset runs only then, on a value no
// other goroutine holds.
type eventLog struct {
	refs   int32
	events []string
}

var freeLogs = make(chan *eventLog, 16)

func (el *eventLog) reset() {
	el.refs = 0 // ok: the last reference was just dropped
	el.events = nil
}

func (el *eventLog) ref() { atomic.AddInt32(&el.refs, 1) }

func (el *eventLog) unref() {
	if atomic.AddInt32(&el.refs, -1) == 0 {
		freeLog(el)
	}
}

func freeLog(el *eventLog) {
	el.reset()
	select {
	case freeLogs <- el:
	default:
	}
}
