package rt

import (
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"unsafe"
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
		// itself may allocate now and then (a new thread, more often on
		// a loaded machine): one clean run in ten is enough; an
		// allocation of rt's own comes on every one.
		least := uint64(1 << 62)
		for i := 0; i < 10 && least != 0; i++ {
			fresh := new(sync.Mutex)
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			before := ms.Mallocs
			Lock(fresh)
			Unlock(fresh)
			runtime.ReadMemStats(&ms)
			t.Logf("run %d: %d", i, ms.Mallocs-before)
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

// The scheduler's own goroutine allocates nothing while a controlled
// goroutine is outside control (a system call, a slow machine) inside
// code a test measures: ttlcache's Test_Cache_Get counts the Mallocs of
// every goroutine between two ReadMemStats, once per schedule. The Go
// runtime itself may allocate in that window, depending on which P the
// OS runs the scheduler's goroutine on (a loaded machine moves it often):
// a sudog for a semaphore when that P's cache is empty, a P's timer heap
// growing. Those come and go by schedule; an allocation of rt's own comes
// on every one: the least count over many schedules is taken.
func TestOutsideWaitDoesNotAllocate(t *testing.T) {
	least := uint64(1 << 62)
	rs := RunSchedules(t, Config{Schedules: 24, Seed: 1}, func(t *testing.T) {
		var mu sync.Mutex
		nap := func() {
			ts := syscall.Timespec{Nsec: 3 * int64(outsideSlice)}
			syscall.Nanosleep(&ts, nil)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		Lock(&mu)
		nap() // outside control: the scheduler waits, then polls
		Unlock(&mu)
		runtime.ReadMemStats(&ms)
		if n := ms.Mallocs - before; n < least {
			least = n
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
	if least != 0 {
		t.Errorf("%d allocations while outside control, want 0", least)
	}
}

// A strategy's decision allocates nothing, also once eight goroutines
// are known (a full small map grows when a key it has is set again: PCT
// at a change point did, inside ttlcache's counted Get) and for selects.
// (Targeted strategies, used by pr, read sites: they may allocate.)
func TestStrategiesDoNotAllocate(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var a, b, c int
	lock := func(g int) Candidate { return Candidate{G: g, Op: "Mutex.Lock", Obj: uintptr(unsafe.Pointer(&a))} }
	sel := func(g int) Candidate {
		return Candidate{G: g, Op: "select", Objs: []uintptr{uintptr(unsafe.Pointer(&b)), uintptr(unsafe.Pointer(&c))}}
	}
	// The runtime itself may allocate now and then (a new thread on a
	// loaded machine): a strategy's run of the seeds is repeated with a
	// fresh one, which decides and allocates the same way, and only the
	// seeds that allocate in each of three runs fail.
	var enabled []Candidate
	for g := 0; g < 8; g++ {
		enabled = append(enabled, lock(g), sel(g))
	}
	for _, name := range []string{StratRandom, StratPCT, StratPOS, StratPortfolio} {
		var allocating map[int64]uint64
		for try := 0; try < 3 && (try == 0 || len(allocating) > 0); try++ {
			got := decisionAllocs(name, enabled)
			if try == 0 {
				allocating = got
				continue
			}
			for seed, n := range allocating {
				if m, ok := got[seed]; ok {
					allocating[seed] = min(n, m)
				} else {
					delete(allocating, seed)
				}
			}
		}
		for seed, n := range allocating {
			t.Errorf("%s, seed %d: %d allocations in 3000 decisions", name, seed, n)
		}
	}
}

// decisionAllocs runs a fresh strategy of name for seeds 1 to 8, 3000
// decisions each among enabled, and returns the allocations of the
// seeds that allocated.
func decisionAllocs(name string, enabled []Candidate) map[int64]uint64 {
	out := map[int64]uint64{}
	st := NewStrategy(name, nil)
	for seed := int64(1); seed <= 8; seed++ {
		st.Reset(seed)
		step, last := 0, -1
		decide := func(list []Candidate) {
			i := st.Next(list, last, step)
			last = list[i].G
			step++
		}
		// Each goroutine shows up, alone, as at its start.
		for g := 0; g < 8; g++ {
			decide(enabled[2*g : 2*g+1])
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.Mallocs
		for step < 3000 {
			k := (step * 7) % 8
			list := enabled[2*k : 2*k+3+step%4]
			if len(list) > len(enabled)-2*k {
				list = enabled[2*k:]
			}
			decide(list)
		}
		runtime.ReadMemStats(&ms)
		if n := ms.Mallocs - before; n != 0 {
			out[seed] = n
		}
	}
	return out
}

// A range over a map of up to mapSmall entries does not allocate under
// control: a hot path that ranges a small map (labels hashed per call) and
// whose test asserts testing.AllocsPerRun(...) == 0 passes as under go test.
func TestMapRangeDoesNotAllocate(t *testing.T) {
	type pair struct {
		k string
		n int
	}
	labels := map[string]string{"method": "GET", "code": "200", "path": "/", "host": "a"}
	byPair := map[pair]int{{"a", 1}: 1, {"b", 2}: 2, {"a", 0}: 3}
	byIface := map[any]int{1: 1, "x": 2, 2.5: 3}
	byPtr := map[*int]int{new(int): 1, new(int): 2}
	full := map[int]int{}
	for i := 0; i < mapSmall; i++ {
		full[i] = i
	}
	var sink uint64
	hash := func() { // FNV-1a over the labels, order-free (xor)
		var h uint64
		for it, k, v := MapIter(labels); it.Next(&k, &v); {
			x := uint64(14695981039346656037)
			for i := 0; i < len(k); i++ {
				x = (x ^ uint64(k[i])) * 1099511628211
			}
			h ^= x + uint64(len(v))
		}
		sink += h
	}
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1}, func(t *testing.T) {
		// Keys stored under control: ordered by when (sortByNum).
		owned := map[*int]int{}
		subs := map[chan int]int{}
		type route struct {
			p    *int
			port int
		}
		routes := map[route]int{}
		byAny := map[any]int{}
		pairs := map[[2]chan int]int{}
		for i := 0; i < 5; i++ {
			owned[MapKey(new(int))] = i
			subs[MapKey(make(chan int))] = i
			routes[MapKey(route{new(int), i})] = i
			byAny[MapKey(any(new(int)))] = i
			pairs[MapKey([2]chan int{make(chan int), nil})] = i
		}
		r, a, c := route{new(int), 1}, any(new(int)), [2]chan int{make(chan int)}
		MapKey(r)
		MapKey(a)
		MapKey(c)
		cases := []struct {
			name string
			f    func()
		}{
			{"labels", hash},
			{"struct keys", func() {
				for it, k, v := MapIter(byPair); it.Next(&k, &v); {
					sink += uint64(k.n + v)
				}
			}},
			{"interface keys", func() {
				for it, _, v := MapIter(byIface); it.Next(nil, &v); {
					sink += uint64(v)
				}
			}},
			{"pointer keys", func() {
				for it, k, _ := MapIter(byPtr); it.Next(&k, nil); {
					sink += uint64(*k)
				}
			}},
			{"pointer keys stored under control", func() {
				for it, k, v := MapIter(owned); it.Next(&k, &v); {
					sink += uint64(*k + v)
				}
			}},
			{"channel keys stored under control", func() {
				for it, _, v := MapIter(subs); it.Next(nil, &v); {
					sink += uint64(v)
				}
			}},
			{"struct keys holding pointers stored under control", func() {
				for it, _, v := MapIter(routes); it.Next(nil, &v); {
					sink += uint64(v)
				}
			}},
			{"interface keys holding pointers stored under control", func() {
				for it, _, v := MapIter(byAny); it.Next(nil, &v); {
					sink += uint64(v)
				}
			}},
			{"array keys holding channels stored under control", func() {
				for it, _, v := MapIter(pairs); it.Next(nil, &v); {
					sink += uint64(v)
				}
			}},
			{"MapKey of composite keys", func() {
				if MapKey(c)[0] == nil {
					sink++
				}
				sink += uint64(MapKey(r).port)
				if MapKey(a) == nil {
					sink++
				}
			}},
			{"full, break", func() {
				for it, k, _ := MapIter(full); it.Next(&k, nil); {
					if k == 3 {
						break
					}
				}
			}},
		}
		for _, c := range cases {
			if a := testing.AllocsPerRun(50, c.f); a != 0 {
				t.Errorf("%s: %v allocations per range under control, want 0", c.name, a)
			}
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}
