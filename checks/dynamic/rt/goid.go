package rt

import (
	"runtime"
	"time"
	"unsafe"
)

// noescape hides p from escape analysis (as the runtime's own noescape).
//
//go:nosplit
//go:nocheckptr
func noescape(p unsafe.Pointer) unsafe.Pointer {
	x := uintptr(p)
	return *(*unsafe.Pointer)(unsafe.Pointer(&x))
}

// spinRounds is how often a waiter re-checks its word, yielding in between,
// before it sleeps.
const spinRounds = 64

// waitChange waits until *addr != old and returns the new value. It gives up
// after limit (0 = never) and then returns old. Only the scheduler
// goroutine waits here: it sleeps on wakeSema, which every bump releases
// (sema.go).
//
//go:norace
func waitChange(addr *uint32, old uint32, limit time.Duration) uint32 {
	for i := 0; i < spinRounds; i++ {
		if v := *addr; v != old {
			return v
		}
		runtime.Gosched()
	}
	var start time.Time
	if limit > 0 {
		start = monoNow()
	}
	for {
		if v := *addr; v != old {
			return v
		}
		nap := 100 * time.Millisecond
		if limit > 0 {
			if left := limit - time.Since(start); left < nap {
				nap = left
			}
			if nap < 50*time.Microsecond {
				nap = 50 * time.Microsecond
			}
		}
		sleepSema(nap)
		if limit > 0 && time.Since(start) > limit {
			if v := *addr; v != old {
				return v
			}
			return old
		}
	}
}

// bump increments *addr (single writer) and wakes the scheduler goroutine.
//
//go:norace
func bump(addr *uint32) {
	*addr++
	semrelease(&wakeSema, false, 0)
}

// goid returns the runtime id of the calling goroutine: read from its
// runtime.g at goidOffset (one load) where start-up found the field, else
// parsed from runtime.Stack's header (stackGoid).
//
//go:norace
func goid() uint64 {
	countGoid()
	if goidOffset >= 0 {
		return *(*uint64)(unsafe.Add(getg(), goidOffset))
	}
	return stackGoid()
}

// stackGoid parses the goroutine's id from the header of runtime.Stack
// ("goroutine 123 [running]:"), whose traceback costs about a microsecond
// a frame of the caller's stack.
//
// The buffer stays on the stack (runtime.Stack would move it to the heap:
// one allocation per scheduling point, which tests counting allocations
// see). runtime.Stack only writes it before returning; it is read through
// arr, which keeps it live until then.
func stackGoid() uint64 {
	countStackGoid()
	var arr [64]byte
	buf := (*[64]byte)(noescape(unsafe.Pointer(&arr)))
	n := runtime.Stack(buf[:], false)
	var id uint64
	for i := len("goroutine "); i < n && i < len(arr); i++ {
		c := arr[i]
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}

// goidWords is how much of runtime.g start-up searches for the id: the
// field is at byte 152 in Go 1.22 to 1.27 on amd64, and g is larger.
const goidWords = 40

// goidOffset is the byte offset of the id in runtime.g, or -1 where getg
// is not available or start-up did not find exactly one word holding
// every sampled goroutine's id (goid then reads the stack).
var goidOffset = func() int {
	n := runtime.NumGoroutine()
	off := findGoidOffset()
	// The samples' goroutines end right after they send: let them, so
	// that they do not count in the driver's baseline of goroutines.
	for i := 0; i < 100000 && runtime.NumGoroutine() > n; i++ {
		runtime.Gosched()
	}
	return off
}()

// findGoidOffset samples the first goidWords words of the runtime.g of a
// few fresh goroutines next to their ids from runtime.Stack and returns
// the one offset where the word is the id in every sample.
func findGoidOffset() int {
	if getg() == nil {
		return -1
	}
	type sample struct {
		words [goidWords]uint64
		id    uint64
	}
	var samples [4]sample
	done := make(chan bool)
	for k := range samples {
		go func() {
			gp := getg()
			for i := range samples[k].words {
				samples[k].words[i] = *(*uint64)(unsafe.Add(gp, 8*i))
			}
			samples[k].id = stackGoid()
			done <- true
		}()
		<-done
	}
	off := -1
	for i := 0; i < goidWords; i++ {
		all := true
		for _, s := range samples {
			all = all && s.id != 0 && s.words[i] == s.id
		}
		if all {
			if off >= 0 {
				return -1
			}
			off = 8 * i
		}
	}
	return off
}

// goidCalls counts goid's calls, roughly (any goroutine adds, unordered):
// for tests of how often the stack is read.
var goidCalls uint64

//go:norace
func countGoid() { goidCalls++ }

// stackGoidCalls counts the stack reads for an id (stackGoid), likewise.
var stackGoidCalls uint64

//go:norace
func countStackGoid() { stackGoidCalls++ }

// gtable maps runtime goroutine ids to controlled goroutines. Only the
// scheduler writes it, and any goroutine may read it (in //go:norace code)
// at any time. An id is added in place (its value, then its key, into an
// empty slot: an empty slot only ever gets filled, so a reader probing for
// another id never misses it) and removed by clearing its value (runtime
// goroutine ids are not reused); the table is copied, without the removed
// ids, only when it grows, and the copy published with a plain pointer
// store. (It was copied at every change: quadratic in a test starting
// ten thousand goroutines.)
type gtable struct {
	keys []uint64
	vals []*gstate
	used int // keys set, removed ones included
}

//go:norace
func (t *gtable) lookup(id uint64) *gstate {
	if t == nil || len(t.keys) == 0 {
		return nil
	}
	mask := uint64(len(t.keys) - 1)
	for i := (id * 0x9e3779b97f4a7c15) & mask; ; i = (i + 1) & mask {
		k := t.keys[i]
		if k == id {
			return t.vals[i]
		}
		if k == 0 {
			return nil
		}
	}
}

// with returns t, or a grown copy of it, holding id -> g (g == nil removes
// id).
//
//go:norace
func (t *gtable) with(id uint64, g *gstate) *gtable {
	if t != nil && len(t.keys) > 0 {
		mask := uint64(len(t.keys) - 1)
		i := (id * 0x9e3779b97f4a7c15) & mask
		for ; t.keys[i] != 0; i = (i + 1) & mask {
			if t.keys[i] == id {
				t.vals[i] = g
				return t
			}
		}
		if g == nil {
			return t
		}
		if 2*(t.used+1)+2 <= len(t.keys) {
			t.vals[i] = g
			t.keys[i] = id
			t.used++
			return t
		}
	}
	size := 16
	var old []*gstate
	if t != nil {
		for i, k := range t.keys {
			if k != 0 && k != id && t.vals[i] != nil {
				old = append(old, t.vals[i])
			}
		}
	}
	if g != nil {
		old = append(old, g)
	}
	for size < 4*len(old)+2 {
		size *= 2
	}
	nt := &gtable{keys: make([]uint64, size), vals: make([]*gstate, size)}
	mask := uint64(size - 1)
	for _, v := range old {
		i := (v.gid * 0x9e3779b97f4a7c15) & mask
		for nt.keys[i] != 0 {
			i = (i + 1) & mask
		}
		nt.keys[i] = v.gid
		nt.vals[i] = v
		nt.used++
	}
	return nt
}
