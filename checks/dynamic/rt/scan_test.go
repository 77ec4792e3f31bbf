package rt

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"
)

// TestScanIsNoLivelock: a finite scan reading many different words with
// atomic loads (a concurrent map's Stats over a presized table) only
// spins by the count of its decisions, but every load reads something new:
// it is progress and ends, not a livelock.
func TestScanIsNoLivelock(t *testing.T) {
	const slots = 40000 // more than livelockSpins
	table := make([]unsafe.Pointer, slots)
	x := 1
	for i := 0; i < slots; i += 7 {
		table[i] = unsafe.Pointer(&x)
	}
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		n := 0
		for i := range table {
			if Then(AtomicLoad(&table[i]), atomic.LoadPointer(&table[i])) != nil {
				n++
			}
		}
		if want := (slots + 6) / 7; n != want {
			t.Errorf("counted %d, want %d", n, want)
		}
	}, nil)
	if r := rs[0]; r.Outcome != "pass" {
		t.Fatalf("want the scan to end, got %s %q", r.Outcome, r.Message)
	}
}

// TestRescanIsLivelock: rereading the same few words, whose values never
// change, is a livelock however the reads are spread over them.
func TestRescanIsLivelock(t *testing.T) {
	var words [5]int64
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		for {
			for i := range words {
				if Then(AtomicLoad(&words[i]), atomic.LoadInt64(&words[i])) != 0 {
					return // nobody sets one
				}
			}
		}
	}, nil)
	if r := rs[0]; r.Outcome != "fatal" || !strings.HasPrefix(r.Message, "livelock:") {
		t.Fatalf("want a livelock, got %s %q", r.Outcome, r.Message)
	}
}
