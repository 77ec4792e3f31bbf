package rt

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
	"weak"
)

type guarded struct {
	mu   sync.Mutex
	rw   sync.RWMutex
	wg   sync.WaitGroup
	once sync.Once
	ch   chan int
	n    int
}

// TestGCCollectsDropped: objects whose mutex, WaitGroup, Once and channel
// the schedule met are collected at a collection point (GC, rewritten from
// runtime.GC) once the program dropped them, as without the tool: a weak
// pointer to one turns nil and its cleanup runs (otter's
// CollectedInSynctestBubble failed on every schedule, its cache held by the
// shadow state). One still referenced keeps its state across the point.
func TestGCCollectsDropped(t *testing.T) {
	var collected, stale, kept int
	body := func(t *testing.T) {
		var cleaned atomic.Bool
		w := func() weak.Pointer[guarded] {
			o := &guarded{ch: make(chan int, 1)}
			Lock(&o.mu)
			o.n++
			Unlock(&o.mu)
			RLock(&o.rw)
			RUnlock(&o.rw)
			WaitGroupAdd(&o.wg, 1)
			Go(func() {
				Send(o.ch, 1)
				WaitGroupDone(&o.wg)
			})
			WaitGroupWait(&o.wg)
			<-o.ch
			OnceDo(&o.once, func() {})
			runtime.AddCleanup(o, func(b *atomic.Bool) { b.Store(true) }, &cleaned)
			return weak.Make(o)
		}()
		alive := &guarded{}
		Lock(&alive.mu)
		GC()
		if w.Value() == nil {
			collected++
		}
		// Still held by this goroutine: its Unlock must find the state.
		Unlock(&alive.mu)
		Lock(&alive.mu)
		Unlock(&alive.mu)
		kept++
		// The cleanup runs on the runtime's own goroutine, as soon as
		// the machine lets it: waited for with real collections, not
		// scheduling points, so that the schedule's length does not
		// follow the machine's load (its replay diverged at a second
		// GC under go test ./...).
		for i := 0; i < 100 && !cleaned.Load(); i++ {
			runtime.GC()
			time.Sleep(time.Millisecond)
		}
		if !cleaned.Load() {
			stale++
		}
	}
	rs := explore(t, 20, body)
	if o := outcomes(rs); o["pass"] != len(rs) || len(rs) != 20 {
		t.Fatalf("outcomes %v, want 20 passes; first %+v", o, rs[0])
	}
	if collected != 20 || stale != 0 || kept != 20 {
		t.Errorf("collected in %d of 20 schedules, cleanup not run in %d, went on holding in %d", collected, stale, kept)
	}
	gcs := 0
	for _, d := range rs[0].Decisions {
		if d.Op == "runtime.GC" {
			gcs++
		}
	}
	if gcs == 0 {
		t.Fatalf("no runtime.GC decision in %+v", rs[0].Decisions)
	}
	collected = 0
	again := RunSchedules(t, Config{Replay: &Schedule{Seed: rs[0].Seed, Decisions: rs[0].Decisions}, StepTimeout: 5 * time.Second}, body, nil)
	if len(again) != 1 || again[0].Outcome != "pass" || len(again[0].Decisions) != len(rs[0].Decisions) || collected != 1 {
		t.Errorf("the replay of a schedule with %d collections: %+v, collected %d times", gcs, again, collected)
	}
}

// TestSpinLoadsHoldNothing: the addresses a spin run remembers (freshLoad)
// do not keep their objects alive: otter's periodic clean-up, polling its
// cache with atomic loads between ticks, kept it for the whole post-test
// window, a leak of the tool's.
func TestSpinLoadsHoldNothing(t *testing.T) {
	s := &sched{}
	o := new([64]byte)
	w := weak.Make(o)
	if !s.freshLoad(1, &request{op: opAtomicLoad, addr: unsafe.Pointer(&o[8]), val: 1}) {
		t.Fatal("a first load is not fresh")
	}
	o = nil
	runtime.GC()
	if w.Value() != nil {
		t.Error("an object whose word a spin run read was not collected")
	}
}
