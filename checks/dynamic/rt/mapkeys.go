// Numbers for map keys with no order of their own: pointers, channels,
// and composite keys holding them.

package rt

import (
	"reflect"
	"slices"
	"strings"
	"unsafe"
	"weak"
)

// MapKey is a key about to be stored in a map under control (the rewriter
// turns m[k] = v, m[k] op= v, m[k]++ and map literals' keys into
// m[rt.MapKey(k)] ... for maps keyed by pointers, channels, or structs,
// arrays or interfaces that may hold one), returned as is. A pointer or
// channel stored for the first time in the schedule, alone or inside the
// key, gets the next number (mapKeys): a range orders such keys by it, an
// order the schedule's decisions fix and a replay meets again (sortByNum,
// compareKeys).
func MapKey[K comparable](k K) K {
	if active == nil {
		return k
	}
	t := reflect.TypeFor[K]()
	switch t.Kind() {
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer:
		if p := *(*unsafe.Pointer)(unsafe.Pointer(&k)); p != nil && current() != nil {
			mapKeys.see(p, goMemory(t))
		}
	case reflect.Struct, reflect.Array, reflect.Interface:
		if holdsRefs(t) && current() != nil {
			// Through a pointer reflect cannot see: k stays on the stack.
			eachRef(reflect.NewAt(t, noescape(unsafe.Pointer(&k))).Elem(), seeRef)
		}
	}
	return k
}

// seeRef numbers p (MapKey through eachRef).
func seeRef(p unsafe.Pointer, goMem bool) bool {
	mapKeys.see(p, goMem)
	return true
}

// goMemory: does a key of type t (a pointer, channel or unsafe.Pointer)
// point into memory the Go runtime allocated, which a weak pointer may
// refer to? A channel does; a pointer does unless to a C type (cgo's
// _Ctype_ names); an unsafe.Pointer may point anywhere (C's malloc: a
// weak pointer to it is a fatal error), so it is held as long as it is
// numbered.
func goMemory(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Chan:
		return true
	case reflect.Pointer:
		return !strings.HasPrefix(t.Elem().Name(), "_Ctype_")
	}
	return false
}

// holdsRefs: may a value of type t hold a pointer, channel or
// unsafe.Pointer (an interface may)?
func holdsRefs(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer, reflect.Interface:
		return true
	case reflect.Array:
		return t.Len() > 0 && holdsRefs(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if holdsRefs(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// eachRef calls f with every non-nil pointer, channel or unsafe.Pointer in
// v, fields and elements in order, and whether it points into Go's memory
// (goMemory), as long as f returns true; it reports whether f always did.
func eachRef(v reflect.Value, f func(p unsafe.Pointer, goMem bool) bool) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Chan, reflect.UnsafePointer:
		if p := v.UnsafePointer(); p != nil {
			return f(p, goMemory(v.Type()))
		}
	case reflect.Interface:
		if !v.IsNil() {
			return eachRef(v.Elem(), f)
		}
	case reflect.Array:
		if holdsRefs(v.Type()) {
			for i := 0; i < v.Len(); i++ {
				if !eachRef(v.Index(i), f) {
					return false
				}
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if !eachRef(v.Field(i), f) {
				return false
			}
		}
	}
	return true
}

// refNum is the number of the pointer, channel or unsafe.Pointer v: 0 for
// nil, false when it has none (never stored under control).
//
//go:norace
func refNum(v reflect.Value) (int32, bool) {
	p := v.UnsafePointer()
	if p == nil {
		return 0, true
	}
	n := keyNum(p)
	return n, n != 0
}

// adoptUnknown gives the one pointer or channel among composite keys that
// was never stored under control the next number, as sortByNum does for
// one such key (which keys a range meets is fixed by the schedule, so
// which pointer that is too), and reports false when two or more differ:
// those keys keep the runtime's order. keys holds at least two.
//
//go:norace
func adoptUnknown[K comparable](keys []K) bool {
	t := reflect.TypeFor[K]()
	if !holdsRefs(t) {
		return true
	}
	base := noescape(unsafe.Pointer(&keys[0]))
	var unknown unsafe.Pointer
	more, unknownGo := false, false
	note := func(p unsafe.Pointer, goMem bool) bool {
		if keyNum(p) != 0 || p == unknown {
			return true
		}
		if unknown != nil {
			more = true
			return false
		}
		unknown, unknownGo = p, goMem
		return true
	}
	for i := range keys {
		if !eachRef(reflect.NewAt(t, unsafe.Add(base, uintptr(i)*t.Size())).Elem(), note) {
			break
		}
	}
	if more {
		return false
	}
	return unknown == nil || mapKeys.see(unknown, unknownGo) != 0
}

// keyTable numbers pointers in the order they were first seen: open
// addressing over parallel arrays, for the goroutine that runs under
// control only (it is alone: no lock, and //go:norace, so that the race
// detector sees no access of the next schedule's clear against this one's
// reads, as it did with a Go map), kept from one schedule to the next like
// the shadow maps (made once, cleared): storing a key allocates nothing
// until the table grows. It holds its keys, so that no address is reused
// while it numbers them, until a collection (collectShadow: at a
// collection point, or once the table grew past keyMaxSlots): there they
// become weak, so that a key the program dropped is collected as without
// the tool, and an entry whose key was collected is of another object at
// that address, if any.
type keyTable struct {
	addrs   []uintptr            // 0: an empty slot
	strong  []unsafe.Pointer     // the key, held; nil once weak
	weak    []weak.Pointer[byte] // the key, once weak
	pin     []bool               // never weak: maybe not Go's memory (goMemory)
	nums    []int32
	n       int        // slots taken
	seq     int32      // the last number given
	order   []keyEntry // the keys by number (carry, at reset)
	crowded bool       // grown past keyMaxSlots: collect (collectCrowded)
}

// keyEntry is one numbering, in keyTable.order.
type keyEntry struct {
	addr uintptr
	num  int32
}

// keyNum is p's number: this schedule's (mapKeys), else, after every
// one of those, the number an earlier schedule of the process gave it
// (earlierKeys), else 0.
//
//go:norace
func keyNum(p unsafe.Pointer) int32 {
	if n := mapKeys.num(p); n != 0 {
		return n
	}
	if n := earlierKeys.num(uintptr(p)); n != 0 {
		return earlierBase + n
	}
	return 0
}

// earlierBase puts the numbers of keys stored by earlier schedules after
// this schedule's.
const earlierBase = 1 << 30

// earlierKeys numbers, by address, the keys that earlier schedules of the
// process numbered, in the order they did (schedule by schedule): a
// global map keeps entries a test stored in an earlier schedule (go-deadlock's
// table of held locks, keyed by interface{}, across its tests), and a
// range meeting two of them kept the runtime's order, which a replay that
// runs those schedules first cannot follow. By address only, so nothing
// is kept alive: a freed key's address taken by a new key that no
// rewritten code stores is ordered as the old one, still the same way in
// a process that runs the same schedules.
var earlierKeys addrTable

// addrTable is keyTable for addresses (uintptr): it keeps nothing alive.
// An address added again takes the next number: the latest schedule's
// order wins (a new key at a freed key's address).
type addrTable struct {
	addrs []uintptr // 0: an empty slot
	nums  []int32
	n     int // addresses held
	seq   int32
}

//go:norace
func (t *addrTable) slot(a uintptr) int {
	mask := uintptr(len(t.addrs) - 1)
	i := uintptr(uint64(a>>3)*0x9e3779b97f4a7c15>>40) & mask
	for t.addrs[i] != 0 && t.addrs[i] != a {
		i = (i + 1) & mask
	}
	return int(i)
}

//go:norace
func (t *addrTable) num(a uintptr) int32 {
	if t.n == 0 {
		return 0
	}
	return t.nums[t.slot(a)]
}

// add gives a the next number, if there is room.
//
//go:norace
func (t *addrTable) add(a uintptr) {
	if t.addrs == nil {
		t.addrs, t.nums = make([]uintptr, keySlots), make([]int32, keySlots)
	}
	if t.seq >= earlierBase-1 {
		return
	}
	i := t.slot(a)
	if t.addrs[i] != 0 {
		t.seq++
		t.nums[i] = t.seq
		return
	}
	if 2*(t.n+1) > len(t.addrs) {
		if 2*len(t.addrs) > keyMaxSlots {
			return
		}
		addrs, nums := t.addrs, t.nums
		t.addrs, t.nums = make([]uintptr, 2*len(addrs)), make([]int32, 2*len(addrs))
		for j, x := range addrs {
			if x != 0 {
				k := t.slot(x)
				t.addrs[k], t.nums[k] = x, nums[j]
			}
		}
		i = t.slot(a)
	}
	t.n++
	t.seq++
	t.addrs[i], t.nums[i] = a, t.seq
}

var mapKeys keyTable

const (
	keySlots     = 1 << 10 // slots made at first
	keyMaxSlots  = 1 << 18 // grown past, the table asks for a collection
	keyHardSlots = 1 << 19 // the table numbers at most half as many keys
)

// slot is where a is, or the empty slot where it would go.
//
//go:norace
func (t *keyTable) slot(a uintptr) int {
	mask := uintptr(len(t.addrs) - 1)
	i := uintptr(uint64(a>>3)*0x9e3779b97f4a7c15>>40) & mask
	for t.addrs[i] != 0 && t.addrs[i] != a {
		i = (i + 1) & mask
	}
	return int(i)
}

// live: does slot i (taken) hold the key at address a itself, not a
// collected key that was there?
//
//go:norace
func (t *keyTable) live(i int, a uintptr) bool {
	return t.strong[i] != nil || uintptr(unsafe.Pointer(t.weak[i].Value())) == a
}

// num is p's number, 0 when it has none.
//
//go:norace
func (t *keyTable) num(p unsafe.Pointer) int32 {
	if t.n == 0 {
		return 0
	}
	a := uintptr(p)
	i := t.slot(a)
	if t.addrs[i] == 0 || !t.live(i, a) {
		return 0
	}
	return t.nums[i]
}

// see gives p the next number if it has none and returns its number (0
// when the table is full: such keys range in the runtime's order); goMem
// says whether p may become weak (goMemory).
//
//go:norace
func (t *keyTable) see(p unsafe.Pointer, goMem bool) int32 {
	if t.addrs == nil {
		t.make(keySlots)
	}
	a := uintptr(p)
	i := t.slot(a)
	if t.addrs[i] != 0 {
		if t.live(i, a) {
			return t.nums[i]
		}
		// A new key where a collected one was.
		return t.number(i, p, goMem)
	}
	if 2*(t.n+1) > len(t.addrs) {
		if 2*len(t.addrs) > keyHardSlots {
			return 0
		}
		// Past keyMaxSlots the next scheduling point collects
		// (collectCrowded), and the entries of collected keys go.
		t.crowded = t.crowded || 2*len(t.addrs) > keyMaxSlots
		t.grow()
		i = t.slot(a)
	}
	t.n++
	t.addrs[i] = a
	return t.number(i, p, goMem)
}

// number gives slot i, holding p, the next number (none once the numbers
// would reach earlierBase's: the slot then holds no key).
//
//go:norace
func (t *keyTable) number(i int, p unsafe.Pointer, goMem bool) int32 {
	t.weak[i] = weak.Pointer[byte]{}
	if t.seq >= earlierBase-1 {
		t.strong[i], t.nums[i] = nil, 0
		return 0
	}
	t.seq++
	t.strong[i], t.pin[i], t.nums[i] = p, !goMem, t.seq
	t.order = append(t.order, keyEntry{uintptr(p), t.seq})
	return t.seq
}

//go:norace
func (t *keyTable) make(slots int) {
	t.addrs, t.strong = make([]uintptr, slots), make([]unsafe.Pointer, slots)
	t.weak, t.pin, t.nums = make([]weak.Pointer[byte], slots), make([]bool, slots), make([]int32, slots)
}

// rehash moves the entries of live keys to a table of slots slots.
//
//go:norace
func (t *keyTable) rehash(slots int) {
	addrs, strong, wk, pin, nums := t.addrs, t.strong, t.weak, t.pin, t.nums
	t.make(slots)
	t.n = 0
	for i, a := range addrs {
		if a == 0 || strong[i] == nil && wk[i].Value() == nil {
			continue
		}
		j := t.slot(a)
		t.addrs[j], t.strong[j], t.weak[j], t.pin[j], t.nums[j] = a, strong[i], wk[i], pin[i], nums[i]
		t.n++
	}
}

//go:norace
func (t *keyTable) grow() { t.rehash(2 * len(t.addrs)) }

// weaken makes every held key weak (a collection: collectShadow),
// but those pinned.
//
//go:norace
func (t *keyTable) weaken() {
	for i, p := range t.strong {
		if p != nil && !t.pin[i] {
			t.weak[i], t.strong[i] = weak.Make((*byte)(p)), nil
		}
	}
}

// sweep forgets the entries of collected keys, and their numberings; a
// table grown past keyMaxSlots goes back to it when they fit.
//
//go:norace
func (t *keyTable) sweep() {
	t.crowded = false
	if t.n == 0 {
		return
	}
	t.rehash(len(t.addrs))
	if len(t.addrs) > keyMaxSlots && 4*t.n <= keyMaxSlots {
		t.rehash(keyMaxSlots)
	}
	kept := t.order[:0]
	for _, e := range t.order {
		if i := t.slot(e.addr); t.addrs[i] != 0 && t.nums[i] == e.num {
			kept = append(kept, e)
		}
	}
	t.order = kept
}

// reset forgets every key, keeping the room (giveShadow); the addresses
// of those still live go on to earlierKeys, in their order.
//
//go:norace
func (t *keyTable) reset() {
	t.seq, t.crowded = 0, false
	if t.n == 0 {
		t.order = t.order[:0]
		return
	}
	for _, e := range t.order {
		if i := t.slot(e.addr); t.addrs[i] != 0 && t.nums[i] == e.num && t.live(i, e.addr) {
			earlierKeys.add(e.addr)
		}
	}
	t.order = t.order[:0]
	for i := range t.addrs { // no clear: rt compiles as go1.18
		t.addrs[i], t.strong[i], t.weak[i], t.pin[i], t.nums[i] = 0, nil, weak.Pointer[byte]{}, false, 0
	}
	t.n = 0
}

// sortByNum sorts pointer or channel keys by their numbers (nil first)
// and reports whether it could: a key never stored under control has no
// number; one such key alone gets the next (the keys a range meets are
// fixed by the schedule, so which one is too), more leave the keys in the
// runtime's order (false). goMem is goMemory of the keys' type.
//
//go:norace
func sortByNum(keys []unsafe.Pointer, goMem bool) bool {
	var small [mapSmall]int32
	var ids []int32
	if len(keys) <= mapSmall {
		ids = small[:len(keys)]
	} else {
		ids = make([]int32, len(keys))
	}
	unknown := -1
	for i, k := range keys {
		switch {
		case k == nil:
			ids[i] = -1
		default:
			if ids[i] = keyNum(k); ids[i] == 0 {
				if unknown >= 0 {
					return false
				}
				unknown = i
			}
		}
	}
	if unknown >= 0 {
		if ids[unknown] = mapKeys.see(keys[unknown], goMem); ids[unknown] == 0 {
			return false
		}
	}
	if len(keys) > mapSmall {
		// Sorted through a copy: keys must not escape (a MapIt on the
		// stack would move to the heap).
		ps := make([]numKey, len(keys))
		for i := range keys {
			ps[i] = numKey{ids[i], keys[i]}
		}
		slices.SortFunc(ps, func(a, b numKey) int { return int(a.id) - int(b.id) })
		for i := range ps {
			keys[i] = ps[i].k
		}
		return true
	}
	for i := 1; i < len(keys); i++ { // insertion sort: no allocation
		for j := i; j > 0 && ids[j-1] > ids[j]; j-- {
			ids[j-1], ids[j] = ids[j], ids[j-1]
			keys[j-1], keys[j] = keys[j], keys[j-1]
		}
	}
	return true
}

type numKey struct {
	id int32
	k  unsafe.Pointer
}
