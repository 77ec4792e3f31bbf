package rt

// The quick check of leftovers between two schedules: a goroutine profile
// (the stacks' PCs, about a quarter of a text dump's cost, nothing
// formatted) instead of the dump admit reads. It keeps the process only
// when every leftover is accounted for; otherwise admit decides.

import (
	"runtime"
	"runtime/metrics"
	"strings"
)

// stackSet counts goroutines by stack (stackKey).
type stackSet map[uint64]int

func (s stackSet) total() int {
	n := 0
	for _, c := range s {
		n += c
	}
	return n
}

// stackKey hashes a goroutine's PCs (FNV-1a over each PC's bytes).
func stackKey(pcs []uintptr) uint64 {
	h := uint64(14695981039346656037)
	for _, pc := range pcs {
		for i := 0; i < 8; i++ {
			h ^= uint64(pc >> (8 * i) & 0xff)
			h *= 1099511628211
		}
	}
	return h
}

// stacks returns the stacks of every goroutine but the caller's, counted,
// in k.now (reused).
func (k *keeper) stacks() stackSet {
	var recs []runtime.StackRecord
	for {
		n, ok := runtime.GoroutineProfile(k.recs)
		if ok {
			recs = k.recs[:n]
			break
		}
		k.recs = make([]runtime.StackRecord, n+n/4+16)
	}
	if k.now == nil {
		k.now = stackSet{}
	}
	for h := range k.now {
		delete(k.now, h) // no clear: rt compiles at old language versions
	}
	// The caller's goroutine comes first in a goroutine profile.
	for i := 1; i < len(recs); i++ {
		pcs := recs[i].Stack()
		h := stackKey(pcs)
		k.now[h]++
		if _, ok := k.parked[h]; !ok {
			k.parked[h] = parkedAwayPCs(pcs)
		}
	}
	return k.now
}

// parkedAwayPCs is parkedAway for a goroutine profile's stack: parked in a
// channel operation (a send, receive or select, runtime.gopark called from
// one) in frames that are neither the tool's nor the testing package's.
func parkedAwayPCs(pcs []uintptr) bool {
	frames := runtime.CallersFrames(pcs)
	for i := 0; ; i++ {
		f, more := frames.Next()
		switch i {
		case 0:
			if f.Function != "runtime.gopark" {
				return false
			}
		case 1:
			switch f.Function {
			case "runtime.chanrecv", "runtime.chansend", "runtime.selectgo", "runtime.block":
			default:
				return false
			}
		default:
			if keeperFrame(f.Function, strings.HasSuffix(f.File, "_test.go")) {
				return false
			}
		}
		if !more {
			return i >= 2
		}
	}
}

// runnableSample is the runtime's count of goroutines waiting for a
// processor (Go 1.26 on; on older runtimes it is unsupported, and the
// quick check never decides).
var runnableSample = []metrics.Sample{{Name: "/sched/goroutines/runnable:goroutines"}}

// runnable reads runnableSample: how many goroutines wait for a processor,
// and whether the runtime counts them. One woken (a send reached it) keeps
// its parked stack until it runs: the profile alone would take it as
// parked. (One that runs has its own stack there.)
func runnable() (uint64, bool) {
	metrics.Read(runnableSample)
	v := runnableSample[0].Value
	if v.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return v.Uint64(), true
}

// quickYields bounds admitQuick's wait for runnable goroutines.
const quickYields = 20

// admitQuick reports whether the next schedule may run beside the
// leftovers, read from a goroutine profile: the goroutines alive before
// the first schedule and the leftovers kept at the last check are still
// there at the same stacks, and every other is parked away. On yes it
// keeps the others too. No is not a verdict: admit reads the dump.
func (k *keeper) admitQuick() bool {
	if k.keptStacks == nil {
		return false
	}
	// Counted, not timed: one that was woken gets a chance to run.
	for i := 0; ; i++ {
		n, ok := runnable()
		if !ok || i == quickYields {
			return false
		}
		if n == 0 {
			break
		}
		runtime.Gosched()
	}
	now := k.stacks()
	if n, _ := runnable(); n != 0 {
		return false
	}
	// Kept ones first: each must be where it was.
	for h, c := range k.keptStacks {
		if now[h] < c {
			return false
		}
	}
	// New ones, less the baseline's at their stack (some may have ended;
	// one that moved is new at its new stack): all parked away, then kept.
	for h, c := range now {
		if c > k.keptStacks[h]+k.baseStacks[h] && !k.parked[h] {
			return false
		}
	}
	for h, c := range now {
		if c -= k.keptStacks[h] + k.baseStacks[h]; c > 0 {
			k.keptStacks[h] += c
		}
	}
	return true
}

// recount sets the stacks of the kept leftovers to those of every
// goroutine but the baseline's, after admit kept them.
func (k *keeper) recount() { k.keptStacks = k.stacks().minus(k.baseStacks) }

// minus is a new stackSet of s's goroutines less base's, stack by stack.
func (s stackSet) minus(base stackSet) stackSet {
	d := stackSet{}
	for h, c := range s {
		if c -= base[h]; c > 0 {
			d[h] = c
		}
	}
	return d
}
