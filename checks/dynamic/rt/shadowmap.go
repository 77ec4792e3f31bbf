package rt

import (
	"runtime"
	"time"
	"unsafe"
	"weak"
)

// shadowMap maps the address of one of the program's objects (a mutex, a
// channel) to its shadow state. Its keys hold their objects, so that no
// address is reused while its state is kept, until a collection point
// (GC): there they become weak, so that an object the program dropped is
// collected as it would be without the tool (weak pointers, cleanups and
// finalizers see it go) and its state is forgotten. Only collection points
// allocate (weak.Make); a lookup of a live object allocates nothing.
type shadowMap[V any] struct {
	strong map[unsafe.Pointer]V
	weak   map[uintptr]weakShadow[V]
}

type weakShadow[V any] struct {
	key weak.Pointer[byte]
	v   V
}

func makeShadowMap[V any](room int) shadowMap[V] {
	return shadowMap[V]{strong: make(map[unsafe.Pointer]V, room)}
}

//go:norace
func (m *shadowMap[V]) get(p unsafe.Pointer) (V, bool) {
	if v, ok := m.strong[p]; ok {
		return v, true
	}
	if len(m.weak) > 0 {
		return m.getWeak(p)
	}
	var zero V
	return zero, false
}

// getWeak looks p up among the entries a collection point made weak. An
// entry whose object was collected is of another object now at the same
// address, if any: it is forgotten.
//
//go:norace
func (m *shadowMap[V]) getWeak(p unsafe.Pointer) (V, bool) {
	e, ok := m.weak[uintptr(p)]
	if ok && unsafe.Pointer(e.key.Value()) == p {
		return e.v, true
	}
	if ok {
		delete(m.weak, uintptr(p))
	}
	var zero V
	return zero, false
}

//go:norace
func (m *shadowMap[V]) set(p unsafe.Pointer, v V) {
	m.strong[p] = v
}

// each calls f with every entry of a live object.
//
//go:norace
func (m *shadowMap[V]) each(f func(p unsafe.Pointer, v V)) {
	for p, v := range m.strong {
		f(p, v)
	}
	for _, e := range m.weak {
		if p := unsafe.Pointer(e.key.Value()); p != nil {
			f(p, e.v)
		}
	}
}

// weaken makes every key weak (before a collection).
//
//go:norace
func (m *shadowMap[V]) weaken() {
	if len(m.strong) == 0 {
		return
	}
	if m.weak == nil {
		m.weak = make(map[uintptr]weakShadow[V], len(m.strong))
	}
	for p, v := range m.strong {
		m.weak[uintptr(p)] = weakShadow[V]{weak.Make((*byte)(p)), v}
	}
	clearMap(m.strong)
}

// sweep forgets the entries of collected objects (after a collection).
//
//go:norace
func (m *shadowMap[V]) sweep() {
	for k, e := range m.weak {
		if e.key.Value() == nil {
			delete(m.weak, k)
		}
	}
}

//go:norace
func (m *shadowMap[V]) clear() {
	clearMap(m.strong)
	if len(m.weak) > 0 {
		clearMap(m.weak)
	}
}

// GC is runtime.GC (rewritten). Called under control it is a scheduling
// point and a collection point: the scheduler's goroutine lets go of the
// program's objects in the shadow state, so that what the program dropped
// is collected, and collects.
func GC() {
	if g := current(); g != nil {
		g.call(&request{op: opGC})
		return
	}
	runtime.GC()
}

// forceGCPeriod is the runtime's forced collection period (forcegcperiod):
// a process whose heap does not grow still collects that often. A schedule
// makes at most forcedGCMax such collections: each costs milliseconds of
// real time, and a janitor ticking every minute through the post-test
// window would make hundreds.
const (
	forceGCPeriod = 2 * time.Minute
	forcedGCMax   = 2
)

// collectCrowded collects when the map keys' table grew past keyMaxSlots
// (go-memdb's TestWatchChan makes 295,000 channels, up to 95 live at a
// time; before, the table numbered the first 131,072 and the ranges after
// them met keys with no number, in the runtime's order). Not a decision:
// the schedule goes on as it would; the program sees a collection where
// its heap grew, as the runtime would make one.
//
//go:norace
func (s *sched) collectCrowded() {
	if mapKeys.crowded {
		s.collectShadow()
	}
}

// timedCollect collects garbage as the clock moves (fireTimersTo): when
// idleGC asks for it and no goroutine can run (the test returned, its
// goroutines wait for time: none is midway through a step holding what
// the test dropped), and when the virtual clock has passed
// forceGCPeriod since the last collection. A goroutine that returns once
// its object is collected (a cache's periodic clean-up holding it weakly)
// then returns under control as it does under go test, and is no leak.
//
//go:norace
func (s *sched) timedCollect(idle bool) {
	if idle && s.collectDropped() {
		return
	}
	if s.now-s.lastGC >= forceGCPeriod && s.forcedGCs < forcedGCMax {
		s.forcedGCs++
		s.collectGarbage()
	}
}

// collectDropped makes the one collection idleGC asks for after the test
// returned, what it dropped among the garbage; false when it was made
// already (or the test left no goroutine).
//
//go:norace
func (s *sched) collectDropped() bool {
	if !s.idleGC {
		return false
	}
	s.idleGC = false
	s.collectGarbage()
	return true
}

// collectGarbage is the collection of a GC under control, on the
// scheduler's goroutine while the program's are parked.
//
//go:norace
func (s *sched) collectGarbage() {
	s.lastGC = s.now
	s.collectShadow()
}

// collectShadow lets go of the program's objects in the shadow state and
// the map keys' numbers (they become weak), collects, and forgets what
// went; on the scheduler's goroutine while the program's are parked.
//
//go:norace
func (s *sched) collectShadow() {
	s.mutexes.weaken()
	s.rws.weaken()
	s.wgs.weaken()
	s.onces.weaken()
	s.conds.weaken()
	s.chans.weaken()
	s.objs.weaken()
	mapKeys.weaken()
	runtime.GC()
	s.mutexes.sweep()
	s.rws.sweep()
	s.wgs.sweep()
	s.onces.sweep()
	s.conds.sweep()
	s.chans.sweep()
	s.objs.sweep()
	mapKeys.sweep()
}
