// Package maps ranges over maps in every form the rewriter turns into
// rt.MapIter loops.
package maps

import "sort"

type Set map[string]struct{}

// Sum uses key and value.
func Sum(m map[string]int) (n int) {
	for k, v := range m {
		n += len(k) + v
	}
	return n
}

// Keys uses the key only, of a named map type.
func Keys(s Set) []string {
	var ks []string
	for k := range s {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Count ranges with no variables.
func Count(m map[int]bool) (n int) {
	for range m {
		n++
	}
	return n
}

// Assign ranges into existing variables, an index expression among them.
func Assign(m map[int]int) (last [2]int, sum int) {
	var k int
	for k, last[1] = range m {
		sum += k + last[1]
	}
	for _, last[0] = range m {
	}
	return last, sum
}

// Find returns from inside the loop; continue and break with labels.
func Find(m map[string][]int, want int) (string, bool) {
	n := 0
outer:
	for k, vs := range m {
		for _, v := range vs {
			if v < 0 {
				continue outer
			}
			if v == want {
				return k, true
			}
			n++
			if n > 1000 {
				break outer
			}
		}
	}
	return "", false
}

// Generic ranges over a map of a type parameter.
func Generic[M ~map[K]V, K comparable, V any](m M) int {
	n := 0
	for _, v := range m {
		_ = v
		n++
	}
	return n
}

// Closures returns one closure per key: in go1.22 each captures its own k.
func Closures(m map[int]bool) []func() int {
	var fs []func() int
	for k := range m {
		fs = append(fs, func() int { return k })
	}
	return fs
}

// Goto leaves the loop with a goto.
func Goto(m map[int]int) int {
	for k, v := range m {
		if v == 7 {
			goto found
		}
		_ = k
	}
	return 0
found:
	return 7
}

// Multi assigns to a target that spans lines: left as written.
func Multi(m map[int]int) int {
	var a [3]int
	for a[idx(
		1,
	)] = range m {
	}
	return a[1]
}

func idx(i int) int { return i }

// Nested ranges over a map inside a range over a map.
func Nested(m map[string]map[string]int) (n int) {
	for _, in := range m {
		for k, v := range in {
			n += len(k) * v
		}
	}
	return n
}

type conn struct{ id int }

// Subscribe stores pointer and channel keys: each is wrapped in
// rt.MapKey (the nil key and reads are not).
func Subscribe(conns map[*conn]int, subs map[chan int]bool, c *conn) int {
	conns[c] = c.id
	conns[c] += 1
	conns[c]++
	subs[make(chan int)] = true
	conns[nil] = 0
	lit := map[*conn]bool{c: true, nil: false}
	return conns[c] + len(lit)
}

type route struct {
	c    *conn
	port int
}

// Routes stores keys holding pointers or channels: wrapped; a string
// stored into a map keyed by any holds none: not wrapped.
func Routes(byRoute map[route]int, byAny map[any]int, pairs map[[2]chan int]int, c *conn) int {
	byRoute[route{c, 80}] = 1
	byAny[c] = 2
	byAny["x"] = 3
	pairs[[2]chan int{make(chan int)}]++
	lit := map[route]bool{{c, 1}: true, route{c, 2}: false}
	return byRoute[route{c, 80}] + len(lit)
}

type routeSet map[route]bool

// Elided keys of map literals: the key type is written out for MapKey
// (the map type's own key, or the type's name), &T for a pointer key.
func Elided(c *conn) int {
	byPtr := map[*conn]bool{{id: 3}: true}
	set := routeSet{{c, 3}: true}
	anon := map[struct{ c *conn }]int{{c}: 1}
	nested := []map[route]bool{{{c, 4}: true}}
	return len(byPtr) + len(set) + len(anon) + len(nested)
}
