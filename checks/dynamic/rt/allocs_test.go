package rt

import (
	"runtime"
	"testing"
)

var allocsSink []byte

// TestAllocCountsInResult: the counts of allocations a schedule's
// program reads are in its Result (AllocReads, AllocCounts: AllocsPerRun's
// result, the Mallocs between two ReadMemStats calls), nonzero ones only,
// and keeping one allocates nothing between two ReadMemStats calls.
func TestAllocCountsInResult(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 2, Seed: 1}, func(t *testing.T) {
		if a := AllocsPerRun(100, func() { allocsSink = make([]byte, 64) }); a != 1 {
			t.Errorf("AllocsPerRun = %v, want 1", a)
		}
		var ms runtime.MemStats
		least := ^uint64(0)
		for i := 0; i < 3; i++ { // the runtime may allocate now and then
			ReadMemStats(&ms)
			before := ms.Mallocs
			ReadMemStats(&ms)
			least = min(least, ms.Mallocs-before)
		}
		if least != 0 {
			t.Errorf("ReadMemStats twice: %d allocations between, want 0", least)
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
		if r.AllocReads != 7 || len(r.AllocCounts) == 0 || r.AllocCounts[0] != 1 {
			t.Errorf("schedule %d: AllocReads %d, AllocCounts %v; want 7 reads, the first count 1", r.Index, r.AllocReads, r.AllocCounts)
		}
	}
	if r := RunFunc(Config{Seed: 1}, 0, func() {}); r.AllocReads != 0 || r.AllocCounts != nil {
		t.Errorf("a schedule that counts nothing: AllocReads %d, AllocCounts %v", r.AllocReads, r.AllocCounts)
	}
}
