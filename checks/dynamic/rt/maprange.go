// Map iteration in an order the schedule's seed fixes.

package rt

import (
	"bytes"
	"math"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"unsafe"
)

// MapIt ranges over a map in an order drawn from the schedule: the rewriter
// turns
//
//	for k, v := range m { body }
//
// into
//
//	for _ilit, k, v := rt.MapIter(m); _ilit.Next(&k, &v); { body }
//
// (a three-clause loop: no range-over-func, so any language version from
// go1.18 on; k and v are declared once per loop or per iteration exactly as
// the range's were). Go randomizes map order in every range; under control
// the keys are put in a canonical order (sorted by value, see sortKeys) and
// then shuffled by a stream the schedule's seed fixes, so that a replay
// ranges in the recording's order and other seeds try other orders.
//
// The range's semantics are kept: the map is evaluated once; an entry
// deleted before it is reached is not produced (each key is looked up when
// reached, which also gives the value current then); entries added during
// the iteration are not produced (the spec allows either); clear stops what
// is left; a nil map has no entries. Keys that are not equal to themselves
// (NaN, or holding one) cannot be looked up: their entries are produced
// with their values from the start (an entry with such a key can only be
// removed by clear, and never assigned), while the map still holds as many
// such entries as are left to produce.
//
// Pointers and channels (and unsafe.Pointer) have no order independent of
// the process: such keys, and the pointers inside structs, arrays and
// interfaces, are ordered by when the schedule first stored each in a map
// (MapKey, sortByNum, compareKeys). Keys holding two or more never stored
// under control range in the runtime's order, as do maps ranged outside
// control.
//
// A map of up to mapSmall entries keeps its keys in the iterator, which
// lives on the ranging function's stack: such a range does not allocate
// (a test asserting testing.AllocsPerRun(...) == 0 over a hot path that
// ranges a small map passes as under go test).
type MapIt[K comparable, V any] struct {
	m     map[K]V
	small [mapSmall]K
	keys  []K // the keys when more than mapSmall, else nil
	n     int // keys to produce, in small or keys
	vals  []V // values of the keys, when some key is not equal to itself
	i     int
	nan   int // such entries still to produce
	k     K
	v     V
}

// mapSmall is the most keys a MapIt holds without allocating.
const mapSmall = 8

// MapIter starts a range over m; its other results are the zero values the
// rewritten loop's variables are declared with.
func MapIter[M ~map[K]V, K comparable, V any](m M) (it MapIt[K, V], k K, v V) {
	mm := map[K]V(m)
	it.m = mm
	if len(mm) == 0 {
		return it, k, v
	}
	// Two paths so that no slice of it.small is ever stored in it (the
	// iterator would move to the heap).
	if len(mm) <= mapSmall {
		var keys []K
		keys, it.vals, it.nan = collectKeys(it.small[:0], mm)
		it.n = len(keys)
		orderKeys(keys, it.vals, it.nan)
	} else {
		it.keys, it.vals, it.nan = collectKeys(make([]K, 0, len(mm)), mm)
		it.n = len(it.keys)
		orderKeys(it.keys, it.vals, it.nan)
	}
	return it, k, v
}

// UserOpHelpers are the unexported functions of this package that perform
// the user's own operation on the user's memory (as the exported entry
// points the rewritten code calls do): a race one of their accesses is in
// is the code's. A race in any other unexported function of the package is
// the tool's own (explore's toolRace).
var UserOpHelpers = []string{"collectKeys"}

// collectKeys appends m's keys to keys. Keys not equal to themselves (NaN,
// or holding one) go last, in the runtime's order, and vals then holds
// their values at the same indices; nan is how many.
func collectKeys[K comparable, V any](keys []K, m map[K]V) (_ []K, vals []V, nan int) {
	for key := range m {
		if key != key {
			nan++
		}
		keys = append(keys, key)
	}
	if nan == 0 {
		return keys, nil, 0
	}
	keys = keys[:0]
	var odd []K
	for key, val := range m {
		if key != key {
			odd = append(odd, key)
			vals = append(vals, val)
		} else {
			keys = append(keys, key)
		}
	}
	keys = append(keys, odd...)
	return keys, append(make([]V, len(keys)-len(odd), len(keys)), vals...), len(odd)
}

// orderKeys puts keys (and vals, if any, alongside) in the schedule's
// order: sorted canonically, then shuffled by the map-order stream.
// Outside control, or for keys with no canonical order, it leaves them in
// the runtime's order.
func orderKeys[K comparable, V any](keys []K, vals []V, nan int) {
	if current() == nil {
		return
	}
	s := active
	if len(keys) >= 2 {
		s.rangeChoice()
	}
	if !sortKeys(keys[:len(keys)-nan]) {
		s.unorderedRange(len(keys) - nan)
		return
	}
	for i := len(keys) - 1; i > 0; i-- {
		j := int(s.mapUint64() % uint64(i+1))
		keys[i], keys[j] = keys[j], keys[i]
		if vals != nil {
			vals[i], vals[j] = vals[j], vals[i]
		}
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Next moves to the next entry still in the map, stores its key and value
// through k and v (either may be nil) and reports whether there was one.
func (it *MapIt[K, V]) Next(k *K, v *V) bool {
	for it.i < it.n {
		i := it.i
		var key K
		if it.n > mapSmall {
			key = it.keys[i]
		} else {
			key = it.small[i]
		}
		it.i++
		var val V
		if key != key {
			left := it.nan
			it.nan--
			n := 0
			for mk := range it.m {
				if mk != mk {
					n++
				}
			}
			if n < left {
				continue // cleared
			}
			val = it.vals[i]
		} else {
			var ok bool
			if val, ok = it.m[key]; !ok {
				continue
			}
		}
		it.k, it.v = key, val
		if k != nil {
			*k = key
		}
		if v != nil {
			*v = val
		}
		return true
	}
	it.keys, it.vals, it.small = nil, nil, [mapSmall]K{}
	return false
}

// Key and Value are the entry Next moved to (a range that assigns to
// existing variables: `for a[i], b = range m`).
func (it *MapIt[K, V]) Key() K   { return it.k }
func (it *MapIt[K, V]) Value() V { return it.v }

// rangeChoice counts a range over two keys or more as a choice: another
// schedule ranges in another order. Controlled goroutines run one at a
// time; the race detector does not see the scheduler's hand-offs, hence
// norace: counted in orderKeys itself, two goroutines ranging over maps of
// their own raced on the count, reported at their range (ttlcache v3.4.0's
// Test_Cache_set, whose parallel subtests range over their caches' event
// handlers: a data race at cache.go:171 in every schedule).
//
//go:norace
func (s *sched) rangeChoice() { s.choices++; s.draws++ }

// mapUint64 is the schedule's next draw for map order (splitmix64), a
// stream of its own so that math/rand's draws (randUint64) are those of
// the same seed without map ranges.
//
//go:norace
func (s *sched) mapUint64() uint64 {
	s.mapState += 0x9e3779b97f4a7c15
	z := s.mapState
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// mapSalt separates the map-order stream from math/rand's.
const mapSalt = 0x6d61706f72646572

// sortKeys puts keys in an order that depends only on their values and
// reports whether it could: keys of ordered kinds compare as numbers or
// strings, bools false first, arrays and structs element by element,
// interfaces by dynamic type name and then value. A pointer, channel or
// unsafe.Pointer has no such order (addresses differ from one process to
// the next, and their order too: the allocator reuses freed slots as the
// collector's timing has it): they are ordered by when the schedule first
// stored them in a map (sortByNum), and so are they inside composite
// keys (compareKeys, encodeKey). Two or more never numbered: false, keys
// in the runtime's order (adoptUnknown).
func sortKeys[K comparable](keys []K) bool {
	if len(keys) < 2 {
		return true
	}
	t := reflect.TypeFor[K]()
	p := unsafe.Pointer(&keys)
	switch t.Kind() {
	case reflect.String:
		slices.Sort(*(*[]string)(p))
	case reflect.Int:
		slices.Sort(*(*[]int)(p))
	case reflect.Int8:
		slices.Sort(*(*[]int8)(p))
	case reflect.Int16:
		slices.Sort(*(*[]int16)(p))
	case reflect.Int32:
		slices.Sort(*(*[]int32)(p))
	case reflect.Int64:
		slices.Sort(*(*[]int64)(p))
	case reflect.Uint:
		slices.Sort(*(*[]uint)(p))
	case reflect.Uint8:
		slices.Sort(*(*[]uint8)(p))
	case reflect.Uint16:
		slices.Sort(*(*[]uint16)(p))
	case reflect.Uint32:
		slices.Sort(*(*[]uint32)(p))
	case reflect.Uint64:
		slices.Sort(*(*[]uint64)(p))
	case reflect.Uintptr:
		slices.Sort(*(*[]uintptr)(p))
	case reflect.Float32:
		slices.Sort(*(*[]float32)(p)) // no NaN here (MapIter)
	case reflect.Float64:
		slices.Sort(*(*[]float64)(p))
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer:
		return sortByNum(*(*[]unsafe.Pointer)(p), goMemory(t)) // by when first stored (MapKey)
	default:
		if !adoptUnknown(keys) {
			return false
		}
		if len(keys) <= mapSmall {
			return sortSmall(keys)
		}
		return sortEncoded(keys)
	}
	return true
}

// sortSmall sorts a few keys of a composite kind in place by comparing
// them through reflect, without allocating (the keys may be a MapIt's
// array on the stack, hidden from escape analysis: the Values made here
// do not outlive the call). On false (a key with no order) keys are
// permuted but hold the same keys.
func sortSmall[K comparable](keys []K) bool {
	t := reflect.TypeFor[K]()
	base := noescape(unsafe.Pointer(&keys[0])) // len(keys) >= 2 (sortKeys)
	at := func(i int) reflect.Value {
		return reflect.NewAt(t, unsafe.Add(base, uintptr(i)*t.Size())).Elem()
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0; j-- {
			c, ok := compareKeys(at(j-1), at(j))
			if !ok {
				return false
			}
			if c <= 0 {
				break
			}
			keys[j-1], keys[j] = keys[j], keys[j-1]
		}
	}
	return true
}

// compareKeys compares two keys of one type in encodeKey's order and
// reports whether it could (pointers, channels and unsafe.Pointer by
// their numbers, nil first: false for one never numbered).
func compareKeys(a, b reflect.Value) (int, bool) {
	switch a.Kind() {
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer:
		x, okx := refNum(a)
		y, oky := refNum(b)
		return cmpOrdered(int(x), int(y)), okx && oky
	case reflect.Bool:
		return cmpOrdered(boolInt(a.Bool()), boolInt(b.Bool())), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return cmpOrdered(a.Int(), b.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return cmpOrdered(a.Uint(), b.Uint()), true
	case reflect.Float32, reflect.Float64:
		return cmpFloat(a.Float(), b.Float()), true
	case reflect.Complex64, reflect.Complex128:
		x, y := a.Complex(), b.Complex()
		if c := cmpFloat(real(x), real(y)); c != 0 {
			return c, true
		}
		return cmpFloat(imag(x), imag(y)), true
	case reflect.String:
		return cmpOrdered(a.String(), b.String()), true
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if c, ok := compareKeys(a.Index(i), b.Index(i)); !ok || c != 0 {
				return c, ok
			}
		}
		return 0, true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if c, ok := compareKeys(a.Field(i), b.Field(i)); !ok || c != 0 {
				return c, ok
			}
		}
		return 0, true
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return boolInt(!a.IsNil()) - boolInt(!b.IsNil()), true
		}
		x, y := a.Elem(), b.Elem()
		if tx, ty := x.Type(), y.Type(); tx != ty {
			if c := cmpTypeNames(tx, ty); c != 0 {
				return c, true
			}
		}
		return compareKeys(x, y)
	}
	return 0, false
}

func cmpOrdered[T int | int64 | uint64 | string](x, y T) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// cmpTypeNames compares PkgPath()+"."+String() of x and y, as encodeKey
// does, without building the strings.
func cmpTypeNames(x, y reflect.Type) int {
	xp, xs, yp, ys := x.PkgPath(), x.String(), y.PkgPath(), y.String()
	nx, ny := len(xp)+1+len(xs), len(yp)+1+len(ys)
	at := func(p, s string, i int) byte {
		switch {
		case i < len(p):
			return p[i]
		case i == len(p):
			return '.'
		}
		return s[i-len(p)-1]
	}
	for i := 0; i < nx && i < ny; i++ {
		if a, b := at(xp, xs, i), at(yp, ys, i); a != b {
			return cmpOrdered(int(a), int(b))
		}
	}
	return cmpOrdered(nx, ny)
}

// cmpFloat orders as floatKey does (-0 before +0; no NaN reaches here).
func cmpFloat(x, y float64) int {
	if x == y {
		return cmpOrdered(boolInt(math.Signbit(y)), boolInt(math.Signbit(x)))
	}
	if x < y {
		return -1
	}
	return 1
}

// sortEncoded sorts keys by an encoding whose byte order is the keys'
// order (encodeKey). It sorts a copy: reflect would move keys, which may
// be a MapIt's own array on the stack, to the heap.
func sortEncoded[K comparable](keys []K) bool {
	own := slices.Clone(keys)
	enc := make([][]byte, len(own))
	for i := range own {
		b, ok := encodeKey(nil, reflect.ValueOf(&own[i]).Elem())
		if !ok {
			return false
		}
		enc[i] = b
	}
	sort.Sort(byEncoding[K]{own, enc})
	copy(keys, own)
	return true
}

type byEncoding[K any] struct {
	keys []K
	enc  [][]byte
}

func (s byEncoding[K]) Len() int           { return len(s.keys) }
func (s byEncoding[K]) Less(i, j int) bool { return bytes.Compare(s.enc[i], s.enc[j]) < 0 }
func (s byEncoding[K]) Swap(i, j int) {
	s.keys[i], s.keys[j] = s.keys[j], s.keys[i]
	s.enc[i], s.enc[j] = s.enc[j], s.enc[i]
}

// encodeKey appends to b bytes that compare (bytes.Compare) as v compares
// with other keys of its type: numbers big-endian with the sign bit
// flipped, strings with 0x00 escaped and a terminator (a prefix sorts
// first), composites as the concatenation of their parts, interfaces as
// their dynamic type's name, then its value, pointers and channels as
// their numbers (MapKey).
func encodeKey(b []byte, v reflect.Value) ([]byte, bool) {
	switch v.Kind() {
	case reflect.Bool:
		return append(b, byte(boolInt(v.Bool()))), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return be64(b, uint64(v.Int())^1<<63), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return be64(b, v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return floatKey(b, v.Float()), true
	case reflect.Complex64, reflect.Complex128:
		c := v.Complex()
		return floatKey(floatKey(b, real(c)), imag(c)), true
	case reflect.String:
		return stringKey(b, v.String()), true
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			var ok bool
			if b, ok = encodeKey(b, v.Index(i)); !ok {
				return nil, false
			}
		}
		return b, true
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			var ok bool
			if b, ok = encodeKey(b, v.Field(i)); !ok {
				return nil, false
			}
		}
		return b, true
	case reflect.Interface:
		if v.IsNil() {
			return append(b, 0), true
		}
		e := v.Elem()
		b = stringKey(append(b, 1), e.Type().PkgPath()+"."+e.Type().String())
		return encodeKey(b, e)
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer:
		n, ok := refNum(v) // by number (MapKey), nil first
		return be64(b, uint64(n)), ok
	}
	return nil, false
}

func be64(b []byte, u uint64) []byte {
	return append(b, byte(u>>56), byte(u>>48), byte(u>>40), byte(u>>32), byte(u>>24), byte(u>>16), byte(u>>8), byte(u))
}

func floatKey(b []byte, f float64) []byte {
	u := math.Float64bits(f)
	if u>>63 != 0 {
		u = ^u
	} else {
		u ^= 1 << 63
	}
	return be64(b, u)
}

func stringKey(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			b = append(b, 0, 0xff)
		} else {
			b = append(b, s[i])
		}
	}
	return append(b, 0, 0)
}

// UnorderedRange tells the ranges of a schedule over maps whose keys hold
// pointers or channels never stored under control (two or more in one
// range: stored by code that is not rewritten, a dependency, or the
// table of numbers full): they met the keys in the runtime's order,
// random, which no replay can follow.
type UnorderedRange struct {
	Site   string `json:"site,omitempty"` // the first such range (file.go:line)
	Ranges int    `json:"ranges"`         // how many such ranges
	Keys   int    `json:"keys"`           // the first one's keys
}

// unorderedRange notes a range over n keys that keeps the runtime's order
// (UnorderedRange), its site resolved when the Result is built.
//
//go:norace
func (s *sched) unorderedRange(n int) {
	if s.unordered.Ranges == 0 {
		s.unordered.Keys = n
		s.unorderedPCs = [8]uintptr{}
		runtime.Callers(3, s.unorderedPCs[:])
	}
	s.unordered.Ranges++
}

// unorderedResult is the schedule's UnorderedRange, nil when none.
//
//go:norace
func (s *sched) unorderedResult() *UnorderedRange {
	if s.unordered.Ranges == 0 {
		return nil
	}
	u := s.unordered
	for _, pc := range s.unorderedPCs {
		if pc == 0 {
			break
		}
		if site := userSite(pc); site != "" {
			u.Site = shortSite(site)
			break
		}
	}
	return &u
}
