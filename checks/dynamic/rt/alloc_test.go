package rt

import (
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// Scheduling points do not allocate: a test that counts allocations
// (testing.AllocsPerRun, runtime.ReadMemStats) around code that locks,
// sends or loads an atomic sees what it sees under go test.
func TestSchedulingPointsDoNotAllocate(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 4, Seed: 1}, func(t *testing.T) {
		var mu sync.Mutex
		var rw sync.RWMutex
		var wg sync.WaitGroup
		var n atomic.Int64
		ch := make(chan int, 1)
		cases := []struct {
			name string
			f    func()
		}{
			{"Mutex", func() { Lock(&mu); Unlock(&mu) }},
			{"RWMutex", func() { RLock(&rw); RUnlock(&rw); WLock(&rw); WUnlock(&rw) }},
			{"WaitGroup", func() { WaitGroupAdd(&wg, 1); WaitGroupDone(&wg); WaitGroupWait(&wg) }},
			{"atomic", func() { Then(Atomic(&n), n.Add(1)); Then(AtomicLoad(&n), n.Load()) }},
			{"chan", func() { Send(ch, 1); Recv(ch) }},
			{"Gosched", func() { Gosched() }},
		}
		// A mutex met for the first time, counted in one run (as
		// ttlcache's Test_Cache_Get does with ReadMemStats). The runtime
		// itself may allocate now and then (a new thread): one clean
		// run in three is enough.
		least := uint64(1 << 62)
		for i := 0; i < 3; i++ {
			fresh := new(sync.Mutex)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			before := ms.Mallocs
			Lock(fresh)
			Unlock(fresh)
			runtime.ReadMemStats(&ms)
			if n := ms.Mallocs - before; n < least {
				least = n
			}
		}
		if least != 0 {
			t.Errorf("a new mutex: %d allocations, want 0", least)
		}
		for _, c := range cases {
			if a := testing.AllocsPerRun(100, c.f); a != 0 {
				t.Errorf("%s: %v allocations per run under control, want 0", c.name, a)
			}
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}

// BenchmarkSchedulingPoint measures one Lock and one Unlock under control
// (go test -bench SchedulingPoint -benchmem): 0 allocs/op.
func BenchmarkSchedulingPoint(b *testing.B) {
	b.ReportAllocs()
	res := RunFunc(Config{Seed: 1, MaxSteps: 2*b.N + 16}, 0, func() {
		var mu sync.Mutex
		for i := 0; i < b.N; i++ {
			Lock(&mu)
			Unlock(&mu)
		}
	})
	if res.Outcome != "pass" {
		b.Fatalf("%s: %s", res.Outcome, res.Message)
	}
}

// goid keeps its buffer on the stack: it must still read the right id,
// also when runtime.Stack has to grow the stack first.
func TestGoidOnStack(t *testing.T) {
	slow := func() uint64 {
		buf := make([]byte, 64)
		n := runtime.Stack(buf, false)
		f := strings.Fields(string(buf[:n]))
		id, _ := strconv.ParseUint(f[1], 10, 64)
		return id
	}
	var deep func(int) bool
	deep = func(k int) bool {
		var pad [256]byte
		if k > 0 {
			return deep(k-1) && pad[k%256] == 0
		}
		return goid() == slow()
	}
	var wg sync.WaitGroup
	var bad atomic.Int32
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 40; k += 3 {
				if !deep(i%7 + k) {
					bad.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if bad.Load() != 0 {
		t.Fatalf("goid disagreed with runtime.Stack %d times", bad.Load())
	}
}
