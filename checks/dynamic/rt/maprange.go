// Map iteration in an order the schedule's seed fixes.

package rt

import (
	"bytes"
	"math"
	"reflect"
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
// Keys with no order independent of the process (pointers, channels,
// unsafe.Pointer, interfaces or structs holding one) range in the
// runtime's order, as do maps ranged outside control.
type MapIt[K comparable, V any] struct {
	m    map[K]V
	keys []K
	vals []V // values of the keys, when some key is not equal to itself
	i    int
	nan  int // such entries still to produce
	k    K
	v    V
}

// MapIter starts a range over m; its other results are the zero values the
// rewritten loop's variables are declared with.
func MapIter[M ~map[K]V, K comparable, V any](m M) (it MapIt[K, V], k K, v V) {
	mm := map[K]V(m)
	it.m = mm
	if len(mm) == 0 {
		return it, k, v
	}
	keys := make([]K, 0, len(mm))
	nan := 0
	for key := range mm {
		if key != key {
			nan++
		}
		keys = append(keys, key)
	}
	if nan > 0 {
		// The keys equal to themselves first; the others after, in the
		// runtime's order, with their values.
		keys = keys[:0]
		var odd []K
		var vals []V
		for key, val := range mm {
			if key != key {
				odd = append(odd, key)
				vals = append(vals, val)
			} else {
				keys = append(keys, key)
			}
		}
		nan = len(odd)
		keys = append(keys, odd...)
		it.vals = append(make([]V, len(keys)-nan, len(keys)), vals...)
		it.nan = nan
	}
	it.keys = keys
	if current() == nil || !sortKeys(keys[:len(keys)-nan]) {
		return it, k, v
	}
	s := active
	for i := len(keys) - 1; i > 0; i-- {
		j := int(s.mapUint64() % uint64(i+1))
		keys[i], keys[j] = keys[j], keys[i]
		if it.vals != nil {
			it.vals[i], it.vals[j] = it.vals[j], it.vals[i]
		}
	}
	return it, k, v
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
	for it.i < len(it.keys) {
		i := it.i
		key := it.keys[i]
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
	it.keys, it.vals = nil, nil
	return false
}

// Key and Value are the entry Next moved to (a range that assigns to
// existing variables: `for a[i], b = range m`).
func (it *MapIt[K, V]) Key() K   { return it.k }
func (it *MapIt[K, V]) Value() V { return it.v }

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
// interfaces by dynamic type name and then value. A key holding a pointer,
// channel or unsafe.Pointer has no such order: addresses differ from one
// process to the next, and their order too (the allocator reuses freed
// slots as the collector's timing has it): false, keys untouched.
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
	default:
		return sortEncoded(keys)
	}
	return true
}

// sortEncoded sorts keys by an encoding whose byte order is the keys'
// order (encodeKey).
func sortEncoded[K comparable](keys []K) bool {
	enc := make([][]byte, len(keys))
	for i := range keys {
		b, ok := encodeKey(nil, reflect.ValueOf(&keys[i]).Elem())
		if !ok {
			return false
		}
		enc[i] = b
	}
	sort.Sort(byEncoding[K]{keys, enc})
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
// their dynamic type's name, then its value.
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
	}
	return nil, false // pointers, channels, unsafe.Pointer
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
