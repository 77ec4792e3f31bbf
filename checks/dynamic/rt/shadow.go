// Shadow state: what S knows of each lock, WaitGroup, Once, Cond and channel.

package rt

import (
	"reflect"
	"runtime"
	"sync"
	"unsafe"
)

// slab hands out shadow states from chunks, one allocation per
// shadowRoom of them.
type slab[T any] struct{ buf []T }

// reset forgets the states handed out (zeroing them: they may hold
// channels and goroutines).
func (b *slab[T]) reset() {
	var zero T
	for i := range b.buf {
		b.buf[i] = zero
	}
	b.buf = b.buf[:0]
}

func (b *slab[T]) next() *T {
	if len(b.buf) == cap(b.buf) {
		b.buf = make([]T, 0, shadowRoom)
	}
	var zero T
	b.buf = append(b.buf, zero)
	return &b.buf[len(b.buf)-1]
}

// shadowRoom is how many objects of each kind a schedule has room for
// before its shadow state allocates.
const shadowRoom = 64

type mutexState struct{ owner int }

type rwState struct{ writer, pending, readers int }

type onceState struct{ state, runner int }

type condState struct{ waiters []*gstate }

type chanState struct {
	closed bool
	// waits counts the blocked goroutines waiting to receive ([0]) and to
	// send ([1]) (countWaits).
	waits [2]waitCount
}

// waiting returns the count of the goroutines waiting in one direction.
func (c *chanState) waiting(send bool) *waitCount {
	if send {
		return &c.waits[1]
	}
	return &c.waits[0]
}

//go:norace
func (s *sched) mutex(p unsafe.Pointer) *mutexState {
	m, _ := s.mutexes.get(p)
	if m == nil {
		m = s.slabs.mutexes.next()
		m.owner = -1
		s.mutexes.set(p, m)
	}
	return m
}

//go:norace
func (s *sched) rw(p unsafe.Pointer) *rwState {
	m, _ := s.rws.get(p)
	if m == nil {
		m = s.slabs.rws.next()
		m.writer, m.pending = -1, -1
		s.rws.set(p, m)
	}
	return m
}

//go:norace
func (s *sched) wg(p unsafe.Pointer) *int {
	w, _ := s.wgs.get(p)
	if w == nil {
		w = s.slabs.wgs.next()
		s.wgs.set(p, w)
	}
	return w
}

// wgStateOff is the offset in sync.WaitGroup of its state word, whose
// high 32 bits are the counter (Go 1.20 and later), or -1 when the
// WaitGroup is not laid out so.
var wgStateOff = func() uintptr {
	f, ok := reflect.TypeOf((*sync.WaitGroup)(nil)).Elem().FieldByName("state")
	if !ok || f.Type.Size() != 8 || f.Type.PkgPath() != "sync/atomic" || f.Type.Name() != "Uint64" {
		return ^uintptr(0)
	}
	return f.Offset
}()

// wgNegative: is the real counter of the WaitGroup at p below zero? A
// Done too many panicked there, and Wait blocks for good. The shadow may
// be below zero while the real counter is not (an Add made before the
// schedule or outside control), so the real one is read (a plain read:
// the scheduler's reads stay out of the race detector's view, and the
// goroutines that change it are parked).
//
//go:norace
func wgNegative(p unsafe.Pointer) bool {
	if wgStateOff == ^uintptr(0) {
		return false
	}
	return int32(*(*uint64)(unsafe.Pointer(uintptr(p) + wgStateOff))>>32) < 0
}

//go:norace
func (s *sched) once(p unsafe.Pointer) *onceState {
	o, _ := s.onces.get(p)
	if o == nil {
		o = s.slabs.onces.next()
		o.runner = -1
		s.onces.set(p, o)
	}
	return o
}

//go:norace
func (s *sched) cond(p unsafe.Pointer) *condState {
	c, _ := s.conds.get(p)
	if c == nil {
		c = s.slabs.conds.next()
		s.conds.set(p, c)
	}
	return c
}

//go:norace
func (s *sched) chanOf(p unsafe.Pointer) *chanState {
	c, _ := s.chans.get(p)
	if c == nil {
		c = s.slabs.chans.next()
		s.chans.set(p, c)
	}
	return c
}

// lockerKind resolves a sync.Locker to the shadow object it denotes.
func lockerKind(l sync.Locker) (op opKind, p unsafe.Pointer) {
	switch m := l.(type) {
	case *sync.Mutex:
		return opLock, unsafe.Pointer(m)
	case *sync.RWMutex:
		return opWLock, unsafe.Pointer(m)
	}
	if l == nil {
		return opNone, nil
	}
	v := reflect.ValueOf(l)
	if v.Kind() == reflect.Pointer && v.Type().String() == "*sync.rlocker" {
		return opRLock, v.UnsafePointer()
	}
	if v.Kind() == reflect.Pointer && !v.IsNil() && v.Type().Elem().Kind() == reflect.Struct {
		return embeddedLock(v)
	}
	return opNone, nil
}

// embeddedLock: when v, a pointer to a struct, has Lock and Unlock
// promoted from an embedded sync.Mutex or sync.RWMutex (through embedded
// structs and pointers at any depth), that mutex. sync.NewCond(m) with
// such an m (miniredis's Miniredis embeds sync.Mutex) waits by calling
// m.Unlock, which must release the shadow of the mutex that m.Lock
// (rewritten to the embedded field's) took.
//
//go:norace
func embeddedLock(v reflect.Value) (opKind, unsafe.Pointer) {
	r := routeOf(v.Type())
	if r.op == opNone {
		return opNone, nil
	}
	p := v.UnsafePointer()
	for _, st := range r.steps[:r.n] {
		p = unsafe.Pointer(uintptr(p) + st.off)
		if st.ptr {
			if p = *(*unsafe.Pointer)(p); p == nil {
				return opNone, nil
			}
		}
	}
	return r.op, p
}

// lockRoute is the way from a pointer to a struct to the mutex its Lock
// is promoted from: the embedded fields' offsets, each a pointer to
// follow or not.
type lockRoute struct {
	typ   reflect.Type
	op    opKind // opNone: Lock is not promoted from a mutex of sync
	n     int
	steps [maxRouteDepth]struct {
		off uintptr
		ptr bool
	}
}

// maxRouteDepth bounds the embedding followed; lockRoutes caches routes
// by type, found once for each (a reflect lookup allocates).
const maxRouteDepth = 8

var (
	lockRoutes  [32]lockRoute
	lockRoutesN int
)

var (
	mutexPtrType = reflect.TypeOf((*sync.Mutex)(nil))
	rwPtrType    = reflect.TypeOf((*sync.RWMutex)(nil))
)

// routeOf finds (or looks up) the lockRoute of pointer type pt.
//
//go:norace
func routeOf(pt reflect.Type) lockRoute {
	for i := 0; i < lockRoutesN; i++ {
		if lockRoutes[i].typ == pt {
			return lockRoutes[i]
		}
	}
	r := lockRoute{typ: pt}
	for t := pt; r.n < maxRouteDepth; {
		if t == mutexPtrType || t == rwPtrType {
			if r.n > 0 {
				r.op = opLock
				if t == rwPtrType {
					r.op = opWLock
				}
			}
			break
		}
		if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || !promoted(t, "Lock") || !promoted(t, "Unlock") {
			break
		}
		st, next := t.Elem(), -1
		for i := 0; i < st.NumField(); i++ {
			f := st.Field(i)
			if !f.Anonymous {
				continue
			}
			ft := f.Type
			if ft.Kind() != reflect.Pointer {
				ft = reflect.PointerTo(ft)
			}
			if _, ok := ft.MethodByName("Lock"); ok {
				if next >= 0 {
					next = -2 // two at this depth: not promoted from either
					break
				}
				next = i
			}
		}
		if next < 0 {
			break
		}
		f := st.Field(next)
		r.steps[r.n].off = f.Offset
		r.steps[r.n].ptr = f.Type.Kind() == reflect.Pointer
		r.n++
		t = f.Type
		if t.Kind() != reflect.Pointer {
			t = reflect.PointerTo(t)
		}
	}
	if lockRoutesN < len(lockRoutes) {
		lockRoutes[lockRoutesN] = r
		lockRoutesN++
	}
	return r
}

// promoted: is method name of t a wrapper the compiler made for a method
// promoted from an embedded field (not one the program declares)?
func promoted(t reflect.Type, name string) bool {
	m, ok := t.MethodByName(name)
	if !ok {
		return false
	}
	f := runtime.FuncForPC(m.Func.Pointer())
	if f == nil {
		return false
	}
	file, _ := f.FileLine(f.Entry())
	return file == "<autogenerated>"
}

// applyLock updates the shadow of a lock operation. It returns false when
// g must stay parked (a writer that now waits for the readers to leave).
//
//go:norace
func (s *sched) applyLock(g *gstate, op opKind, p unsafe.Pointer, rep *reply) bool {
	switch op {
	case opLock:
		s.mutex(p).owner = g.id
	case opUnlock:
		m := s.mutex(p)
		if m.owner < 0 {
			s.fatal(g, "fatal error: sync: unlock of unlocked mutex")
			rep.mode = mSkip
		}
		m.owner = -1
	case opTryLock:
		m := s.mutex(p)
		if m.owner < 0 {
			m.owner = g.id
			rep.ok = true
		}
	case opWLock:
		m := s.rw(p)
		if m.readers > 0 {
			m.pending = g.id
			return false
		}
		m.writer, m.pending = g.id, -1
	case opWUnlock:
		m := s.rw(p)
		if m.writer < 0 {
			s.fatal(g, "fatal error: sync: Unlock of unlocked RWMutex")
			rep.mode = mSkip
		}
		m.writer = -1
	case opTryWLock:
		m := s.rw(p)
		if m.writer < 0 && m.pending < 0 && m.readers == 0 {
			m.writer = g.id
			rep.ok = true
		}
	case opRLock:
		s.rw(p).readers++
	case opRUnlock:
		m := s.rw(p)
		if m.readers <= 0 {
			s.fatal(g, "fatal error: sync: RUnlock of unlocked RWMutex")
			rep.mode = mSkip
		} else {
			m.readers--
		}
	case opTryRLock:
		m := s.rw(p)
		if m.writer < 0 && m.pending < 0 {
			m.readers++
			rep.ok = true
		}
	}
	return true
}

// clearMap empties the map m whole, keeping its room. Deleting its keys
// one by one (what the runtime's language version allows: no clear) is
// compiled into such a clear without -race only: in a race build each
// delete from a full group of the map leaves a tombstone, schedule after
// schedule, until an insert finds no room and the map grows, allocating
// in whatever code the test measures (ttlcache's Test_Cache_Get, 1
// schedule in thousands). reflect's Clear is the runtime's mapclear.
//
//go:norace
func clearMap(m any) {
	reflect.ValueOf(m).Clear()
}

// shadowBuf keeps the shadow maps and slabs from one schedule to the next
// (one schedule runs at a time): made once with room for the objects of
// most tests, so that meeting a new mutex or channel allocates nothing
// inside code a test measures, and a schedule costs no allocation.
var shadowBuf *sched

//go:norace
func (s *sched) takeShadow() {
	b := shadowBuf
	shadowBuf = nil
	if b == nil {
		s.mutexes, s.rws = makeShadowMap[*mutexState](shadowRoom), makeShadowMap[*rwState](shadowRoom)
		s.wgs, s.onces = makeShadowMap[*int](shadowRoom), makeShadowMap[*onceState](shadowRoom)
		s.conds, s.chans = makeShadowMap[*condState](shadowRoom), makeShadowMap[*chanState](shadowRoom)
		s.objs = makeShadowMap[int](4 * shadowRoom)
		s.slabs.mutexes.buf = make([]mutexState, 0, shadowRoom)
		s.slabs.rws.buf = make([]rwState, 0, shadowRoom)
		s.slabs.wgs.buf = make([]int, 0, shadowRoom)
		s.slabs.onces.buf = make([]onceState, 0, shadowRoom)
		s.slabs.conds.buf = make([]condState, 0, shadowRoom)
		s.slabs.chans.buf = make([]chanState, 0, shadowRoom)
		if mapKeys.addrs == nil {
			mapKeys.make(keySlots)
		}
		return
	}
	s.mutexes, s.rws, s.wgs, s.onces, s.conds, s.chans, s.objs = b.mutexes, b.rws, b.wgs, b.onces, b.conds, b.chans, b.objs
	s.slabs = b.slabs
}

// giveShadow empties the shadow maps and slabs and keeps them for the
// next schedule.
//
//go:norace
func (s *sched) giveShadow() {
	s.mutexes.clear()
	s.rws.clear()
	s.wgs.clear()
	s.onces.clear()
	s.conds.clear()
	s.chans.clear()
	s.objs.clear()
	mapKeys.reset()
	s.slabs.mutexes.reset()
	s.slabs.rws.reset()
	s.slabs.wgs.reset()
	s.slabs.onces.reset()
	s.slabs.conds.reset()
	s.slabs.chans.reset()
	b := &sched{mutexes: s.mutexes, rws: s.rws, wgs: s.wgs, onces: s.onces, conds: s.conds, chans: s.chans, objs: s.objs}
	b.slabs = s.slabs
	shadowBuf = b
}

// releaseWaiters releases the goroutines blocked in Wait on the
// WaitGroup at p, whose count has just reached zero.
//
//go:norace
func (s *sched) releaseWaiters(p unsafe.Pointer) {
	for _, o := range s.blocked {
		if o.req.op == opWGWait && o.req.obj == p {
			o.wgReleased = true
		}
	}
}
