package allocs

import (
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

type cache struct {
	mu    sync.Mutex
	items map[string]int
	hits  atomic.Int64
}

func (c *cache) get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hits.Add(1)
	return c.items[k]
}

func (c *cache) set(k string, v int) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
}

// Locking allocates nothing: a test counting allocations sees 0 under the
// scheduler as under go test.
func TestAllocsPerRun(t *testing.T) {
	c := &cache{items: map[string]int{}}
	c.set("a", 1)
	if n := testing.AllocsPerRun(100, func() { c.get("a") }); n != 0 {
		t.Fatalf("%v allocations per get", n)
	}
}

// mallocs counts the allocations of every goroutine while f runs, once
// (as ttlcache's allocsPerSingleRun does). The runtime's own work (a
// collection, a thread for a system call) allocates now and then: it is
// done before.
func mallocs(f func()) uint64 {
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	nap(time.Millisecond)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.Mallocs
	f()
	runtime.ReadMemStats(&ms)
	return ms.Mallocs - before
}

// nap is a system call taking d (outside the scheduler's control).
func nap(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	syscall.Nanosleep(&ts, nil)
}

// A goroutine slow to reach its next scheduling point (here a system
// call; on a loaded machine, any code) inside the code a test measures:
// the scheduler waiting for it (5ms, then it looks) allocates nothing
// either. The count is process-wide, and the Go runtime itself sometimes
// allocates around a system call on a loaded machine: the least of three
// tries is the code's.
func TestAllocsWhileSlow(t *testing.T) {
	for _, name := range []string{"first", "second"} {
		t.Run(name, func(t *testing.T) {
			c := &cache{items: map[string]int{}}
			c.set("a", 1)
			least := ^uint64(0)
			for try := 0; try < 3 && least != 0; try++ {
				least = min(least, mallocs(func() {
					c.get("a")
					nap(8 * time.Millisecond)
					c.get("a")
				}))
			}
			if least != 0 {
				t.Fatalf("%d allocations in get, a system call and get", least)
			}
		})
	}
}

// Counted in each of twelve subtests, one goroutine each: the strategy
// choosing among more than eight goroutines allocates nothing either.
func TestAllocsManySubtests(t *testing.T) {
	for i := 0; i < 12; i++ {
		t.Run("", func(t *testing.T) {
			c := &cache{items: map[string]int{}}
			c.set("a", 1)
			if n := mallocs(func() {
				for k := 0; k < 20; k++ {
					c.get("a")
				}
			}); n != 0 {
				t.Fatalf("%d allocations in 20 gets", n)
			}
		})
	}
}
