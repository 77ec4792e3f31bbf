package rt

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"unsafe"
)

// TestShadowKeepsRoom: the shadow maps keep their room from one schedule
// to the next without growing. Schedule after schedule meeting 64 new
// locks, channels and objects, the shadow state allocates nothing once
// made. ttlcache's Test_Cache_Get counted such a growth (a map of
// RWMutexes, met in its Get) about once in thousands of schedules: in a
// race build, the build interleave makes, emptying a map key by key left
// tombstones until an insert found no room. It needs -race to fail; a
// build without it runs the test again in one with it (ranInRaceChild).
//
// Allocations are counted from the memory profile, by the stacks that
// run through the scheduler's methods: MemStats would also count
// what the runtime and the testing package allocate on their own (CI saw
// one such round in 3000), which would hide or fake the rare growth.
func TestShadowKeepsRoom(t *testing.T) {
	if ranInRaceChild(t) {
		return
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer func(rate int) { runtime.MemProfileRate = rate }(runtime.MemProfileRate)
	runtime.MemProfileRate = 1
	kept := shadowBuf
	shadowBuf = nil
	defer func() { shadowBuf = kept }()
	arena := make([]uint64, 1<<16)
	off := 0
	fresh := func() unsafe.Pointer {
		off = (off + 3) % len(arena)
		return unsafe.Pointer(&arena[off])
	}
	const rounds, objects = 6000, shadowRoom
	var made int64
	for round := 0; round < rounds; round++ {
		if round == 1 {
			made = shadowAllocs(t)
		}
		s := &sched{}
		s.takeShadow()
		for i := 0; i < objects; i++ {
			s.mutex(fresh()).owner = 1
			s.rw(fresh()).readers = 1
			s.objOf(&request{obj: fresh()})
			w := s.chanOf(fresh()).waiting(i%2 == 0)
			w.add(0, 1)
			w.add(0, -1)
		}
		s.giveShadow()
	}
	if grew := shadowAllocs(t) - made; grew != 0 {
		t.Errorf("the shadow state allocated %d objects over %d schedules meeting %d new objects each, after the first", grew, rounds-1, objects)
	}
}

// shadowAllocs counts the objects allocated so far by stacks that run
// through the scheduler's methods met during a schedule (not takeShadow
// and giveShadow, which run before and after it), as of a garbage
// collection it forces.
func shadowAllocs(t *testing.T) int64 {
	t.Helper()
	runtime.GC()
	var recs []runtime.MemProfileRecord
	for {
		n, _ := runtime.MemProfile(nil, true)
		recs = make([]runtime.MemProfileRecord, n+50)
		if n, ok := runtime.MemProfile(recs, true); ok {
			recs = recs[:n]
			break
		}
	}
	var total int64
	for _, r := range recs {
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			if strings.Contains(f.Function, "/checks/dynamic/rt.(*sched).") && !strings.HasSuffix(f.Function, "Shadow") {
				total += r.AllocObjects
				break
			}
			if !more {
				break
			}
		}
	}
	return total
}
