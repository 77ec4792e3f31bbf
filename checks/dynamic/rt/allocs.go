package rt

import (
	"math"
	"runtime"
	"sync/atomic"
	"testing"
)

// A test that counts allocations (testing.AllocsPerRun, the Mallocs of
// runtime.ReadMemStats) counts every allocation of the process while it
// measures: under control, the other controlled goroutines the scheduler
// runs meanwhile, and the instrumented code's, too. The rewrite calls
// these twins instead; the counts a schedule read are in its Result
// (AllocReads, AllocCounts), for explore to tell a failure on such a
// count from the code's.

// maxAllocCounts is the most nonzero counts a schedule keeps.
const maxAllocCounts = 16

// allocCounts are the counts of allocations a schedule's program read.
// Reading them allocates nothing: a test measuring Mallocs between two
// ReadMemStats calls must not count the bookkeeping of the first.
type allocCounts struct {
	reads   atomic.Int32
	n       atomic.Int32
	vals    [maxAllocCounts]atomic.Uint64 // math.Float64bits of each count
	mallocs atomic.Uint64                 // the last ReadMemStats's Mallocs+1 (0: none)
}

// add keeps a nonzero count.
func (a *allocCounts) add(v float64) {
	if v == 0 {
		return
	}
	if i := a.n.Add(1) - 1; i < maxAllocCounts {
		a.vals[i].Store(math.Float64bits(v))
	}
}

// counts returns the nonzero counts kept, nil when none.
func (a *allocCounts) counts() []float64 {
	n := int(a.n.Load())
	if n > maxAllocCounts { // not min: rt compiles as go1.18 (lang_test.go)
		n = maxAllocCounts
	}
	if n == 0 {
		return nil
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = math.Float64frombits(a.vals[i].Load())
	}
	return out
}

// AllocsPerRun is testing.AllocsPerRun; while a schedule runs, the count
// it returns is kept for the schedule's Result.
//
//go:norace
func AllocsPerRun(runs int, f func()) float64 {
	avg := testing.AllocsPerRun(runs, f)
	if s := active; s != nil {
		s.allocs.reads.Add(1)
		s.allocs.add(avg)
	}
	return avg
}

// ReadMemStats is runtime.ReadMemStats; while a schedule runs, the Mallocs
// since the schedule's previous call are kept for its Result, as the
// count a test takes between two calls.
//
//go:norace
func ReadMemStats(m *runtime.MemStats) {
	runtime.ReadMemStats(m)
	if s := active; s != nil {
		s.allocs.reads.Add(1)
		if prev := s.allocs.mallocs.Swap(m.Mallocs + 1); prev != 0 && m.Mallocs > prev-1 {
			s.allocs.add(float64(m.Mallocs - (prev - 1)))
		}
	}
}
