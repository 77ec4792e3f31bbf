package rt

import (
	"runtime"
	"strconv"
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
// change, is a livelock however the reads are spread over them. The
// verdict is counted evidence: with nothing outside control the spin rule
// takes no real naps (no wall time in the verdict).
func TestRescanIsLivelock(t *testing.T) {
	var words [5]int64
	naps := livelockNaps.Load()
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		for {
			for i := range words {
				if Then(AtomicLoad(&words[i]), atomic.LoadInt64(&words[i])) != 0 {
					return // nobody sets one
				}
			}
		}
	}, nil)
	r := rs[0]
	if r.Outcome != "fatal" || !strings.HasPrefix(r.Message, "livelock:") {
		t.Fatalf("want a livelock, got %s %q", r.Outcome, r.Message)
	}
	// The verdict comes at the first spin turn past livelockSpins.
	_, after, _ := strings.Cut(r.Message, "the last ")
	n, err := strconv.Atoi(strings.Fields(after + " x")[0])
	if err != nil || n < livelockSpins || n >= livelockSpins+spinAdvance {
		t.Errorf("verdict after %d rereading decisions, want %d to %d: %q", n, livelockSpins, livelockSpins+spinAdvance-1, r.Message)
	}
	if n := livelockNaps.Load() - naps; n != 0 {
		t.Errorf("%d real naps with nothing outside control, want 0", n)
	}
}

// TestRescanEndedOutside: a goroutine outside control that computes gets
// real naps while the program rereads a word, and the word it sets ends
// the loop: no livelock. It sets the word after the third nap, whatever
// the machine's speed.
func TestRescanEndedOutside(t *testing.T) {
	var word int64
	naps := livelockNaps.Load()
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		atomic.StoreInt64(&word, 0)
		go func() { // not controlled: a dependency's worker
			for livelockNaps.Load() < naps+3 {
				runtime.Gosched()
			}
			atomic.StoreInt64(&word, 1)
		}()
		for Then(AtomicLoad(&word), atomic.LoadInt64(&word)) == 0 {
		}
	}, nil)
	if r := rs[0]; r.Outcome != "pass" {
		t.Fatalf("want the loop to end, got %s %q", r.Outcome, r.Message)
	}
}

// TestSpinnersTakeTurns: a single-producer single-consumer ring of one
// slot (xsync's SPSCQueue test), each side spinning on atomic loads until
// the other moves. It ends on any machine: the two spin in parallel, or
// the runtime preempts one. The unperturbed schedule never preempts and
// the clock does not move for such loads: it ran one side on alone (the
// other's next load, never made, would have found its way clear) to the
// step bound here, to a livelock verdict in xsync's test. A spinner
// passed over spinAdvance decisions of a spin run now has its turn.
func TestSpinnersTakeTurns(t *testing.T) {
	rs := RunSchedules(t, Config{Schedules: 3, Seed: 1, Strategy: PlainStrategy, StepTimeout: 5 * time.Second}, func(t *testing.T) {
		const n = 10
		var prod, cons uint64 // items produced and consumed; room for one
		sum := 0
		done := make(chan bool)
		Go(func() {
			for i := 0; i < n; i++ {
				for Then(AtomicLoad(&prod), atomic.LoadUint64(&prod))-Then(AtomicLoad(&cons), atomic.LoadUint64(&cons)) == 1 {
				}
				Then(Atomic(&prod), atomic.AddUint64(&prod, 1))
			}
		})
		Go(func() {
			for i := 0; i < n; i++ {
				for Then(AtomicLoad(&cons), atomic.LoadUint64(&cons)) == Then(AtomicLoad(&prod), atomic.LoadUint64(&prod)) {
				}
				sum += i
				Then(Atomic(&cons), atomic.AddUint64(&cons, 1))
			}
			Send(done, true)
		})
		Recv(done)
		if sum != n*(n-1)/2 {
			t.Errorf("sum %d", sum)
		}
	}, nil)
	for i, r := range rs {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Errorf("schedule %d: %s %q %s", i, r.Outcome, r.Message, r.Inconclusive)
		}
	}
}
