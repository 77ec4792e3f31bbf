package rt

import (
	"os/exec"
	"runtime"
	"runtime/debug"
	"testing"
	"unsafe"
)

// TestShadowKeepsRoom: the shadow maps keep their room from one schedule
// to the next without growing. Schedule after schedule meeting 40 new
// locks, channels and objects, the shadow state allocates nothing once
// made. ttlcache's Test_Cache_Get counted such a growth (a map of
// RWMutexes, met in its Get) about once in thousands of schedules: in a
// race build, the build interleave makes, emptying a map key by key left
// tombstones until an insert found no room. It needs -race to fail; a
// build without it runs the test again in one with it.
func TestShadowKeepsRoom(t *testing.T) {
	if !raceEnabled {
		if testing.Short() {
			t.Skip("needs -race (a child go test -race)")
		}
		out, err := exec.Command("go", "test", "-race", "-count=1", "-run", "^TestShadowKeepsRoom$", ".").CombinedOutput()
		if err != nil {
			t.Fatalf("go test -race: %v\n%s", err, out)
		}
		return
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	kept := shadowBuf
	shadowBuf = nil
	defer func() { shadowBuf = kept }()
	arena := make([]uint64, 1<<16)
	off := 0
	fresh := func() unsafe.Pointer {
		off = (off + 3) % len(arena)
		return unsafe.Pointer(&arena[off])
	}
	var ms runtime.MemStats
	grew := 0
	for round := 0; round < 3000; round++ {
		s := &sched{}
		s.takeShadow()
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		for i := 0; i < 40; i++ {
			s.mutex(fresh()).owner = 1
			s.rw(fresh()).readers = 1
			s.objs[fresh()] = i
			k := chanDir{fresh(), i%2 == 0}
			s.addWaits(k, 1)
			s.addWaits(k, -1)
		}
		runtime.ReadMemStats(&ms)
		if ms.Mallocs != before && round > 0 {
			grew++
		}
		s.giveShadow()
	}
	if grew != 0 {
		t.Errorf("the shadow state allocated in %d of 3000 schedules meeting 40 new objects each", grew)
	}
}
