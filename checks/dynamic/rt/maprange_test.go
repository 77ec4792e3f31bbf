package rt

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// mapRange is the rewritten `for k, v := range m { f(k, v) }`.
func mapRange[M ~map[K]V, K comparable, V any](m M, f func(K, V) bool) {
	for it, k, v := MapIter(m); it.Next(&k, &v); {
		if !f(k, v) {
			break
		}
	}
}

func keysOf[K comparable, V any](m map[K]V) []K {
	var ks []K
	mapRange(m, func(k K, _ V) bool { ks = append(ks, k); return true })
	return ks
}

// TestMapOrderReplays: under control a map ranges in an order the
// schedule's seed fixes: a replay ranges as the recording did (here the
// order decides which goroutine takes the lock first), other seeds range
// in other orders, and every key is produced once.
func TestMapOrderReplays(t *testing.T) {
	m := map[string]int{}
	for i := 0; i < 12; i++ {
		m["k"+strconv.Itoa(i)] = i
	}
	var order []string
	body := func(t *testing.T) {
		order = order[:0]
		var mu sync.Mutex
		var wg sync.WaitGroup
		mapRange(m, func(k string, _ int) bool {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				Lock(&mu)
				order = append(order, k)
				Unlock(&mu)
			})
			return true
		})
		WaitGroupWait(&wg)
		// A second range in the same schedule draws another order.
		order = append(order, keysOf(m)...)
	}
	cfg := Config{Schedules: 6, Seed: 11, Strategy: "random", StepTimeout: 5 * time.Second}
	var recorded [][]string
	rs := RunSchedules(t, cfg, body, func(Result) bool {
		recorded = append(recorded, slices.Clone(order))
		return true
	})
	distinct := map[string]bool{}
	for i, r := range rs {
		distinct[fmt.Sprint(recorded[i][12:])] = true
		got := slices.Clone(recorded[i][12:])
		sort.Strings(got)
		want := slices.Sorted(func(yield func(string) bool) {
			for k := range m {
				if !yield(k) {
					return
				}
			}
		})
		if !slices.Equal(got, want) {
			t.Fatalf("seed %d ranged over %v, want each of %v once", r.Seed, recorded[i][12:], want)
		}
		sch := &Schedule{Version: ScheduleVersion, Test: "maps", Seed: r.Seed, Decisions: r.Decisions}
		for k := 0; k < 3; k++ {
			again := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, body)
			if again.Diverged != "" || !slices.Equal(order, recorded[i]) {
				t.Fatalf("replay %d of seed %d: diverged %q, order %v, want %v", k, r.Seed, again.Diverged, order, recorded[i])
			}
		}
	}
	if len(distinct) < 4 {
		t.Errorf("6 seeds ranged in %d orders: %v", len(distinct), recorded)
	}
}

// TestMapIterSemantics: what the spec says of a range over a map, under
// control and outside it.
func TestMapIterSemantics(t *testing.T) {
	check := func(t *testing.T) {
		// Deleted before reached: not produced; the value is the one current
		// when reached; added: not produced (allowed).
		m := map[int]string{}
		for i := 1; i <= 10; i++ {
			m[i] = "v"
		}
		first := 0
		seen := map[int]string{}
		mapRange(m, func(k int, v string) bool {
			seen[k] = v
			if first == 0 {
				first = k
				for o := range m {
					if o != k && o%2 == 0 {
						delete(m, o)
					} else if o != k {
						m[o] = "x"
					}
				}
			}
			m[100+k] = "new"
			return true
		})
		for k, v := range seen {
			switch {
			case k == first:
			case k >= 100:
				t.Errorf("added key %d produced", k)
			case k%2 == 0:
				t.Errorf("key %d deleted before it was reached produced", k)
			case v != "x":
				t.Errorf("key %d produced with value %q, want the current one", k, v)
			}
		}
		if want := 5 + (first+1)%2; len(seen) != want {
			t.Errorf("%d entries produced (%v), want %d", len(seen), seen, want)
		}
		// clear stops what is left, NaN keys included.
		f := map[float64]int{1: 1, 2: 2, math.NaN(): 3, math.NaN(): 4}
		n := 0
		mapRange(f, func(float64, int) bool { n++; clear(f); return true })
		if n != 1 {
			t.Errorf("range after clear produced %d entries, want 1", n)
		}
		// NaN keys are produced with their values.
		f = map[float64]int{1: 1, math.NaN(): 3, math.NaN(): 4}
		var vs []int
		mapRange(f, func(_ float64, v int) bool { vs = append(vs, v); return true })
		slices.Sort(vs)
		if !slices.Equal(vs, []int{1, 3, 4}) {
			t.Errorf("NaN map produced values %v, want [1 3 4]", vs)
		}
		// A nil map: nothing; break stops.
		mapRange(map[string]int(nil), func(string, int) bool { t.Error("nil map produced"); return true })
		n = 0
		mapRange(map[int]int{1: 1, 2: 2, 3: 3}, func(int, int) bool { n++; return n < 2 })
		if n != 2 {
			t.Errorf("break after 2: %d entries", n)
		}
		// Keys of every kind, pointers included (runtime order).
		type pt struct {
			X, Y int
			S    string
		}
		type named map[pt]bool
		a, b := new(int), new(int)
		for _, c := range []struct {
			n    int
			keys func() int
		}{
			{3, func() int {
				return len(keysOf(map[pt]bool(named{{1, 2, "a"}: true, {1, 2, "b"}: true, {0, 9, ""}: true})))
			}},
			{4, func() int { return len(keysOf(map[any]int{1: 1, "1": 2, 1.5: 3, pt{}: 4})) }},
			{2, func() int { return len(keysOf(map[*int]int{a: 1, b: 2})) }},
			{2, func() int { return len(keysOf(map[[2]string]int{{"a", "b"}: 1, {"a", ""}: 2})) }},
			{2, func() int { return len(keysOf(map[any]int{a: 1, 2: 2})) }},
			{2, func() int { return len(keysOf(map[bool]int{true: 1, false: 2})) }},
			{3, func() int { return len(keysOf(map[complex128]int{1i: 1, 2: 2, complex(math.NaN(), 0): 3})) }},
		} {
			if got := c.keys(); got != c.n {
				t.Errorf("%d keys produced, want %d", got, c.n)
			}
		}
	}
	t.Run("outside", check)
	t.Run("controlled", func(t *testing.T) {
		r := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, nil, check)
		if r.Outcome != "pass" {
			t.Fatalf("%s: %s", r.Outcome, r.Message)
		}
	})
}

// TestSortKeys: the canonical order is the keys' order, for every kind
// that has one, and there is none for pointers.
func TestSortKeys(t *testing.T) {
	type st struct {
		A int8
		B string
	}
	ints := []int64{5, -3, math.MinInt64, 0, math.MaxInt64, -1}
	if !sortEncoded(ints) || !slices.IsSorted(ints) {
		t.Errorf("ints: %v", ints)
	}
	fl := []float64{2.5, -0.5, math.Inf(-1), 0, math.Inf(1), -7, 1e-300}
	if !sortEncoded(fl) || !slices.IsSorted(fl) {
		t.Errorf("floats: %v", fl)
	}
	strs := []string{"b", "a\x00b", "a", "", "a\x00", "ab", "\x00"}
	if !sortEncoded(strs) || !slices.IsSorted(strs) {
		t.Errorf("strings: %q", strs)
	}
	sts := []st{{1, "b"}, {-1, "z"}, {1, "a"}, {0, ""}}
	if !sortEncoded(sts) || !slices.IsSortedFunc(sts, func(a, b st) int {
		if a.A != b.A {
			return int(a.A) - int(b.A)
		}
		return cmpString(a.B, b.B)
	}) {
		t.Errorf("structs: %v", sts)
	}
	ifs := []any{"x", 3, 1, "a", nil, 2.5}
	if !sortKeys(ifs) {
		t.Fatal("interfaces holding numbers and strings: no order")
	}
	if ifs[0] != nil || fmt.Sprint(ifs[1:]) != "[2.5 1 3 a x]" {
		t.Errorf("interfaces: %v (nil, then by type name float64, int, string)", ifs)
	}
	// Pointers and channels never stored under control (MapKey): two or
	// more have no order.
	if sortKeys([]*int{new(int), new(int)}) || sortKeys([]any{1, new(int), new(int)}) || sortKeys([]chan int{make(chan int), nil, make(chan int)}) {
		t.Error("pointers or channels sorted")
	}
	if sortSmall([]st2{{P: new(int)}, {}}) || sortSmall([]any{2, new(int), 1, new(int)}) {
		t.Error("sortSmall: pointers sorted")
	}
	// Composite keys holding pointers or channels stored under control
	// (MapKey) are ordered by those numbers, nil first; one never stored
	// gets the next number, two or more leave the runtime's order.
	withKeys(t, func(t *testing.T) {
		p1, p2, p3 := new(int), new(int), new(int)
		c1, c2 := make(chan int), make(chan int)
		MapKey(st2{P: p2})
		MapKey(any(p1))
		MapKey([2]chan int{c2, c1})
		MapKey(any(st2{P: p3}))
		sts := []st2{{1, p3}, {1, p1}, {0, p1}, {1, nil}, {1, p2}}
		want := []st2{{0, p1}, {1, nil}, {1, p2}, {1, p1}, {1, p3}}
		if !sortSmall(slices.Clone(sts)) || !sortEncoded(sts) || !slices.Equal(sts, want) {
			t.Errorf("structs holding pointers: %v, want %v", sts, want)
		}
		agree(t, []st2{{1, p3}, {1, p1}, {0, p1}, {1, nil}, {1, p2}})
		ifs := []any{p3, 1, p1, p2, nil}
		if !sortKeys(ifs) || ifs[0] != nil || ifs[1] != p2 || ifs[2] != p1 || ifs[3] != p3 || ifs[4] != 1 {
			t.Errorf("interfaces holding pointers: %v", ifs)
		}
		arr := [][2]chan int{{c1, nil}, {c2, c1}, {c2, nil}}
		if !sortKeys(arr) || arr[0] != [2]chan int{c2, nil} || arr[1] != [2]chan int{c2, c1} || arr[2] != [2]chan int{c1, nil} {
			t.Errorf("arrays of channels: %v", arr)
		}
		p4, p5 := new(int), new(int)
		one := []st2{{1, p4}, {0, p2}, {1, p4}}
		if !sortKeys(one) || mapKeys.num(unsafe.Pointer(p4)) == 0 || one[0].P != p2 {
			t.Errorf("one pointer never stored: %v, number %d", one, mapKeys.num(unsafe.Pointer(p4)))
		}
		if sortKeys([]st2{{1, p5}, {0, new(int)}}) || sortKeys([]any{p5, new(int)}) {
			t.Error("two pointers never stored: sorted")
		}
	})
	// sortSmall (a few composite keys, no allocation) orders as
	// sortEncoded does.
	type named int
	agree(t, []st{{1, "b"}, {-1, "z"}, {1, "a"}, {0, ""}, {1, "a\x00"}})
	agree(t, []any{"x", 3, 1, "a", nil, 2.5, named(1), st{1, "a"}, [2]int{1, 2}, true, false, complex(1, -1), complex(1, 2)})
	agree(t, [][2]float64{{0, 1}, {math.Copysign(0, -1), 1}, {-1, 9}, {math.Inf(1), 0}})
	agree(t, []struct {
		B bool
		C complex64
	}{{true, 1}, {false, 2}, {false, 1i}, {true, -1}})
}

// withKeys runs f with the key numbers of a schedule (MapKey) and
// forgets them after.
func withKeys(t *testing.T, f func(t *testing.T)) {
	t.Helper()
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1}, f, nil)
	if r := rs[0]; r.Outcome != "pass" {
		t.Errorf("%s: %s", r.Outcome, r.Message)
	}
}

type st2 struct {
	N int
	P *int
}

func agree[K comparable](t *testing.T, keys []K) {
	t.Helper()
	for seed := uint64(1); seed <= 20; seed++ {
		a := slices.Clone(keys)
		s := seed
		for i := len(a) - 1; i > 0; i-- { // any permutation
			s = s*6364136223846793005 + 1442695040888963407
			j := int(s>>33) % (i + 1)
			a[i], a[j] = a[j], a[i]
		}
		b := slices.Clone(a)
		if !sortSmall(a) || !sortEncoded(b) {
			t.Fatalf("%v: no order", keys)
		}
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("sortSmall %v, sortEncoded %v", a, b)
		}
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// BenchmarkMapRange: a range over n string keys as written, through
// MapIter outside control (a snapshot of the keys, a lookup per step), and
// the canonical order added under control (sortKeys; the shuffle is n
// draws).
func BenchmarkMapRange(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		m := map[string]int{}
		for i := 0; i < n; i++ {
			m["key"+strconv.Itoa(i)] = i
		}
		b.Run("plain/"+strconv.Itoa(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s := 0
				for _, v := range m {
					s += v
				}
			}
		})
		b.Run("mapiter/"+strconv.Itoa(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s := 0
				for it, _, v := MapIter(m); it.Next(nil, &v); {
					s += v
				}
			}
		})
		keys := make([]string, 0, n)
		for k := range m {
			keys = append(keys, k)
		}
		b.Run("sort/"+strconv.Itoa(n), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				ks := slices.Clone(keys)
				sortKeys(ks)
			}
		})
	}
}

// TestPointerKeyedOrderReplays: maps keyed by channels (a broker's
// subscribers) and by pointers (connections) range in an order a replay
// meets again: the keys are ordered by when the schedule first stored
// each (MapKey), which the decisions fix, then shuffled by the seed. The
// goroutines that subscribe race, so the order differs between seeds.
// Before, such keys kept the runtime's order, which differs from one
// range to the next.
func TestPointerKeyedOrderReplays(t *testing.T) {
	type conn struct{ id int }
	var order []int
	body := func(t *testing.T) {
		order = order[:0]
		var mu sync.Mutex
		var wg sync.WaitGroup
		subs := map[chan int]int{}
		conns := map[*conn]bool{}
		for i := 0; i < 6; i++ {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				c := &conn{i}
				Lock(&mu)
				subs[MapKey(make(chan int, 1))] = i
				conns[MapKey(c)] = true
				Unlock(&mu)
			})
		}
		WaitGroupWait(&wg)
		for r := 0; r < 2; r++ {
			for it, _, i := MapIter(subs); it.Next(nil, &i); {
				order = append(order, i)
			}
			for it, c, _ := MapIter(conns); it.Next(&c, nil); {
				order = append(order, 10+c.id)
			}
		}
	}
	cfg := Config{Schedules: 6, Seed: 5, Strategy: "random", StepTimeout: 5 * time.Second}
	var recorded [][]int
	rs := RunSchedules(t, cfg, body, func(Result) bool {
		recorded = append(recorded, slices.Clone(order))
		return true
	})
	distinct := map[string]bool{}
	for i, r := range rs {
		distinct[fmt.Sprint(recorded[i])] = true
		if got := slices.Sorted(slices.Values(recorded[i][:6])); fmt.Sprint(got) != "[0 1 2 3 4 5]" {
			t.Fatalf("seed %d ranged over %v", r.Seed, recorded[i])
		}
		sch := &Schedule{Version: ScheduleVersion, Test: "keys", Seed: r.Seed, Decisions: r.Decisions}
		for k := 0; k < 4; k++ {
			again := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, body)
			if again.Diverged != "" || !slices.Equal(order, recorded[i]) {
				t.Fatalf("replay %d of seed %d: diverged %q, order %v, want %v", k, r.Seed, again.Diverged, order, recorded[i])
			}
		}
	}
	if len(distinct) < 3 {
		t.Errorf("6 seeds ranged in %d orders: %v", len(distinct), recorded)
	}
}

// TestCompositeKeyedOrderReplays: maps keyed by structs, interfaces and
// arrays holding pointers or channels range in an order a replay meets
// again: the pointers inside are numbered when first stored (MapKey).
// Before, such keys kept the runtime's order.
func TestCompositeKeyedOrderReplays(t *testing.T) {
	type conn struct{ id int }
	type route struct {
		c    *conn
		port int
	}
	var order []int
	body := func(t *testing.T) {
		order = order[:0]
		var mu sync.Mutex
		var wg sync.WaitGroup
		routes := map[route]int{}
		byAny := map[any]int{}
		pairs := map[[2]chan int]int{}
		for i := 0; i < 6; i++ {
			WaitGroupAdd(&wg, 1)
			Go(func() {
				defer WaitGroupDone(&wg)
				c := &conn{i}
				Lock(&mu)
				routes[MapKey(route{c, 80})] = i
				byAny[MapKey(any(c))] = i
				pairs[MapKey([2]chan int{make(chan int), nil})] = i
				Unlock(&mu)
			})
		}
		WaitGroupWait(&wg)
		for r := 0; r < 2; r++ {
			for it, _, i := MapIter(routes); it.Next(nil, &i); {
				order = append(order, i)
			}
			for it, _, i := MapIter(byAny); it.Next(nil, &i); {
				order = append(order, 10+i)
			}
			for it, _, i := MapIter(pairs); it.Next(nil, &i); {
				order = append(order, 20+i)
			}
		}
	}
	cfg := Config{Schedules: 6, Seed: 5, Strategy: "random", StepTimeout: 5 * time.Second}
	var recorded [][]int
	rs := RunSchedules(t, cfg, body, func(Result) bool {
		recorded = append(recorded, slices.Clone(order))
		return true
	})
	distinct := map[string]bool{}
	for i, r := range rs {
		distinct[fmt.Sprint(recorded[i])] = true
		if got := slices.Sorted(slices.Values(recorded[i][:6])); fmt.Sprint(got) != "[0 1 2 3 4 5]" {
			t.Fatalf("seed %d ranged over %v", r.Seed, recorded[i])
		}
		sch := &Schedule{Version: ScheduleVersion, Test: "keys", Seed: r.Seed, Decisions: r.Decisions}
		for k := 0; k < 4; k++ {
			again := RunSchedule(t, Config{StepTimeout: 5 * time.Second}, 0, nil, sch, body)
			if again.Diverged != "" || !slices.Equal(order, recorded[i]) {
				t.Fatalf("replay %d of seed %d: diverged %q, order %v, want %v", k, r.Seed, again.Diverged, order, recorded[i])
			}
		}
	}
	if len(distinct) < 3 {
		t.Errorf("6 seeds ranged in %d orders: %v", len(distinct), recorded)
	}
}

// TestUnorderedRangeTold: keys holding pointers stored by code that is not
// rewritten (no MapKey: a dependency's) have no numbers; a range over two
// or more of them keeps the runtime's order, which no replay follows: the
// Result says where (Unordered), not silence. Keys stored through MapKey:
// nothing to say.
func TestUnorderedRangeTold(t *testing.T) {
	type conn struct{ id int }
	for _, wrapped := range []bool{false, true} {
		rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
			conns := map[*conn]int{}
			for i := range 3 {
				if c := (&conn{i}); wrapped {
					conns[MapKey(c)] = i
				} else {
					conns[c] = i // a dependency's store
				}
			}
			n := 0
			for r := 0; r < 2; r++ {
				for it, _, i := MapIter(conns); it.Next(nil, &i); {
					n += i
				}
			}
		}, nil)
		if len(rs) != 1 || rs[0].Outcome != "pass" {
			t.Fatalf("wrapped %v: %+v", wrapped, rs)
		}
		u := rs[0].Unordered
		switch {
		case wrapped && u != nil:
			t.Errorf("keys stored through MapKey: Unordered %+v, want nil", *u)
		case !wrapped && (u == nil || u.Ranges != 2 || u.Keys != 3 || len(u.Site) < 17 || u.Site[:17] != "maprange_test.go:"):
			t.Errorf("keys stored by code not rewritten: Unordered %+v, want 2 ranges of 3 keys at maprange_test.go", u)
		}
	}
}

// TestEarlierKeysOrdered: a map that outlives its schedule (a package's
// registry: go-deadlock's table of held locks, keyed by interface{})
// ranged by later schedules of the process over keys an earlier schedule
// stored: ordered by that schedule's numbers, so the same schedules in
// another process range the same way, not in the runtime's order (before:
// Unordered, "no rewritten code stored", on 11 of go-deadlock's 24 tests).
func TestEarlierKeysOrdered(t *testing.T) {
	type conn struct{ id int }
	run := func() (orders []string, unordered int) {
		registry := map[*conn]int{}
		rs := RunSchedules(t, Config{Schedules: 4, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
			if len(registry) == 0 {
				for i := range 5 {
					registry[MapKey(&conn{i})] = i
				}
				return
			}
			var b strings.Builder
			for it, _, i := MapIter(registry); it.Next(nil, &i); {
				b.WriteString(strconv.Itoa(i))
			}
			orders = append(orders, b.String())
		}, nil)
		for _, r := range rs {
			if r.Outcome != "pass" {
				t.Fatalf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
			}
			if r.Unordered != nil {
				unordered++
			}
		}
		return orders, unordered
	}
	a, ua := run()
	b, ub := run()
	if ua != 0 || ub != 0 {
		t.Errorf("%d and %d ranges in the runtime's order, want none", ua, ub)
	}
	if len(a) != 3 || !slices.Equal(a, b) {
		t.Errorf("orders %q and %q, want the same three", a, b)
	}
}

// TestEarlierKeysLatestOrder: an address an earlier schedule numbered and
// a later one stores again (a new key where a freed one was) takes the
// later schedule's place in the order, after the keys stored before it.
func TestEarlierKeysLatestOrder(t *testing.T) {
	var tab addrTable
	tab.add(0x1000)
	tab.add(0x2000)
	if tab.num(0x1000) >= tab.num(0x2000) {
		t.Fatalf("numbers %d, %d: want the first added first", tab.num(0x1000), tab.num(0x2000))
	}
	tab.add(0x1000)
	if tab.num(0x1000) <= tab.num(0x2000) || tab.n != 2 {
		t.Errorf("added again: numbers %d, %d, %d held; want the address after the other, 2 held", tab.num(0x1000), tab.num(0x2000), tab.n)
	}
	if tab.num(0x3000) != 0 {
		t.Errorf("an address never added has number %d", tab.num(0x3000))
	}
}
