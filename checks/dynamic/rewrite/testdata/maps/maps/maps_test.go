package maps

import (
	"math"
	"sort"
	"testing"
)

func TestForms(t *testing.T) {
	if got := Sum(map[string]int{"a": 1, "bb": 2}); got != 6 {
		t.Errorf("Sum = %d", got)
	}
	if got := Keys(Set{"b": {}, "a": {}}); len(got) != 2 || got[0] != "a" {
		t.Errorf("Keys = %v", got)
	}
	if got := Count(map[int]bool{1: true, 2: false, 3: true}); got != 3 {
		t.Errorf("Count = %d", got)
	}
	if last, sum := Assign(map[int]int{5: 5}); last != [2]int{5, 5} || sum != 10 {
		t.Errorf("Assign = %v, %d", last, sum)
	}
	if k, ok := Find(map[string][]int{"x": {-1, 3}, "y": {1, 3}}, 3); !ok || k != "y" {
		t.Errorf("Find = %q, %v", k, ok)
	}
	if got := Generic(map[float64]string{1: "a", math.NaN(): "b", math.NaN(): "c"}); got != 3 {
		t.Errorf("Generic = %d", got)
	}
	var vs []int
	for _, f := range Closures(map[int]bool{1: true, 2: true, 3: true}) {
		vs = append(vs, f())
	}
	sort.Ints(vs)
	if len(vs) != 3 || vs[0] != 1 || vs[2] != 3 {
		t.Errorf("Closures saw %v, want [1 2 3] (per-iteration variables, go1.22)", vs)
	}
	if got := Nested(map[string]map[string]int{"a": {"xy": 2}, "b": {"z": 3, "": 9}}); got != 7 {
		t.Errorf("Nested = %d", got)
	}
	if Goto(map[int]int{1: 7}) != 7 || Multi(map[int]int{4: 0}) != 4 {
		t.Error("Goto or Multi")
	}
}

func TestSubscribe(t *testing.T) {
	conns, subs := map[*conn]int{}, map[chan int]bool{}
	if got := Subscribe(conns, subs, &conn{id: 3}); got != 7 || len(conns) != 2 || len(subs) != 1 {
		t.Errorf("Subscribe = %d, %d conns, %d subs; want 7, 2, 1", got, len(conns), len(subs))
	}
}

func TestRoutes(t *testing.T) {
	byRoute, byAny, pairs := map[route]int{}, map[any]int{}, map[[2]chan int]int{}
	if got := Routes(byRoute, byAny, pairs, &conn{1}); got != 3 || len(byAny) != 2 || len(pairs) != 1 {
		t.Errorf("Routes = %d, %v, %v", got, byAny, pairs)
	}
}

func TestElided(t *testing.T) {
	if n := Elided(&conn{1}); n != 4 {
		t.Errorf("Elided = %d, want 4", n)
	}
}
