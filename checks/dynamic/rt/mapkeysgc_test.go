package rt

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"weak"
)

type heavyKey struct{ _ [1 << 12]byte }

// TestGCCollectsMapKeys: a key a map under control held (MapKey numbers
// it) is collected at a collection point once the program deleted and
// dropped it, as without the tool: a weak pointer to it turns nil and its
// cleanup runs (go-deadlock's TestOrderMapGC, 50 structs of 1 MB held
// through its map of locks taken: "HeapInuse = 56 MB, expected < 20 MB"
// under interleave only). A key still in the map keeps its number across
// the point: the range after it is in the schedule's order.
func TestGCCollectsMapKeys(t *testing.T) {
	var collected, cleaned int
	body := func(t *testing.T) {
		held := map[any]int{}
		keep := &heavyKey{}
		held[MapKey(any(keep))] = 1
		var ran atomic.Bool
		w := func() weak.Pointer[heavyKey] {
			h := &heavyKey{}
			held[MapKey(any(h))] = 2
			delete(held, any(h))
			runtime.AddCleanup(h, func(b *atomic.Bool) { b.Store(true) }, &ran)
			return weak.Make(h)
		}()
		GC()
		if w.Value() == nil {
			collected++
		}
		for i := 0; i < 100 && !ran.Load(); i++ {
			GC()
		}
		if ran.Load() {
			cleaned++
		}
		held[MapKey(any(&heavyKey{}))] = 3
		n := 0
		for it, _, _ := MapIter(held); it.Next(nil, nil); {
			n++
		}
		if n != 2 {
			t.Errorf("ranged %d keys, want 2", n)
		}
		runtime.KeepAlive(keep)
	}
	rs := explore(t, 10, body)
	if o := outcomes(rs); o["pass"] != len(rs) || len(rs) != 10 {
		t.Fatalf("outcomes %v, want 10 passes; first %+v", o, rs[0])
	}
	for _, r := range rs {
		if r.Unordered != nil {
			t.Errorf("schedule %d ranged in the runtime's order: %+v", r.Index, *r.Unordered)
		}
	}
	if collected != 10 || cleaned != 10 {
		t.Errorf("a dropped key collected in %d of 10 schedules, its cleanup run in %d", collected, cleaned)
	}
}

// TestMapKeysChurn: a schedule that stores more distinct keys than the
// table numbers at once (keyHardSlots/2), few of them live at a time and
// a scheduling point now and then, still numbers the keys of its last
// map, whose range is then in the schedule's order (go-memdb's
// TestWatchChan makes a watch set of up to 95 new channels 4,656 times:
// its ranges ran in the runtime's order, "met 73 keys holding pointers or
// channels that no rewritten code stored"). Replayed, the ranges go as
// recorded.
func TestMapKeysChurn(t *testing.T) {
	// The addresses its last keys leave to earlierKeys would number the
	// fresh channels of later tests (TestSortKeys).
	t.Cleanup(func() { earlierKeys = addrTable{} })
	var orders [][]int
	body := func(t *testing.T) {
		var mu sync.Mutex
		var set map[chan int]int
		for i := 0; i < keyHardSlots/2+4096; i += 8 {
			set = map[chan int]int{}
			for j := 0; j < 8; j++ {
				set[MapKey(make(chan int))] = j
			}
			if i%1024 == 0 {
				Lock(&mu)
				Unlock(&mu)
			}
		}
		var order []int
		for it, _, v := MapIter(set); it.Next(nil, &v); {
			order = append(order, v)
		}
		orders = append(orders, order)
	}
	rs := RunSchedules(t, Config{Schedules: 2, Seed: 1, StepTimeout: 20 * time.Second}, body, nil)
	if o := outcomes(rs); o["pass"] != 2 {
		t.Fatalf("outcomes %v, want 2 passes", o)
	}
	for _, r := range rs {
		if r.Unordered != nil {
			t.Errorf("schedule %d ranged in the runtime's order: %+v", r.Index, *r.Unordered)
		}
	}
	again := RunSchedules(t, Config{Replay: &Schedule{Seed: rs[1].Seed, Decisions: rs[1].Decisions}, StepTimeout: 20 * time.Second}, body, nil)
	if len(again) != 1 || again[0].Outcome != "pass" || again[0].Unordered != nil {
		t.Fatalf("replay: %+v", again)
	}
	if len(orders) != 3 || len(orders[2]) != 8 || !slices.Equal(orders[1], orders[2]) {
		t.Errorf("orders %v: want the replay's range as the recording's", orders)
	}
}
