package rt

import (
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// writeEntry stands for one line of an exporter's output: it rereads a
// global option (an atomic flag nobody sets) at one site, with an
// argument of its own each call.
//
//go:noinline
func writeEntry(flag *uint32, i int) int {
	if Then(AtomicLoad(flag), atomic.LoadUint32(flag)) != 0 {
		return 2 * i
	}
	return i
}

// Workers that each reread one flag while they write their entries make
// long runs of spinning decisions, but they progress (every reread is at
// a call of its own): the clock must not jump to the caller's 5 s timeout
// meanwhile, as it would for a polling loop (VictoriaMetrics'
// TestWritePrometheusConcurrent timed out so on 8 of 17 schedules).
func TestProgressRereadingAFlagIsNoSpin(t *testing.T) {
	var flag uint32
	const workers, entries = 3, 200
	body := func(t *testing.T) {
		awaitWorkers(t, workers, func() uint64 {
			sum := 0
			for i := 0; i < entries; i++ {
				sum += writeEntry(&flag, i)
			}
			return uint64(sum)
		})
	}
	for _, r := range RunSchedules(t, Config{Schedules: 10, Seed: 1, StepTimeout: 5 * time.Second}, body, nil) {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: %s %q", r.Index, r.Outcome, r.Message)
		}
	}
}

// pollingTimeout polls a flag an AfterFunc sets in 5 s, with its own 1 s
// deadline, which comes first.
func pollingTimeout(t *testing.T) {
	var flag uint32
	AfterFunc(5*time.Second, func() { atomic.StoreUint32(&flag, 1) })
	deadline := After(time.Second)
	for Then(AtomicLoad(&flag), atomic.LoadUint32(&flag)) == 0 {
		if Select(true, RecvCase(deadline)) == 0 {
			<-PickRecv(0, 0, deadline)
			t.Fatal("not set within 1s")
		}
	}
}

// A polling loop repeats itself: the clock still moves for it, and its
// 1 s deadline is a failure that replays.
func TestPollingLoopStillMovesTheClock(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	t.Parallel()
	rs, out, _ := runMain(t, Config{Test: "TestPollingTimeout", Seed: 1, Schedules: 1, StepTimeout: 5 * time.Second})
	if len(rs) != 1 || rs[0].Outcome != "test-failure" || !strings.Contains(out, "not set within 1s") {
		t.Fatalf("want the 1s deadline to fail the test, got %v\n%s", outcomes(rs), out)
	}
	sched := &Schedule{Seed: rs[0].Seed, Decisions: rs[0].Decisions}
	again, out, _ := runMain(t, Config{Test: "TestPollingTimeout", Replay: sched, StepTimeout: 5 * time.Second})
	if len(again) != 1 || again[0].Outcome != "test-failure" || !strings.Contains(out, "not set within 1s") || again[0].Diverged != "" {
		t.Errorf("replay: %+v, want the failure as recorded\n%s", again, out)
	}
}

// optionSet stands for a global option every entry written rereads
// (VictoriaMetrics' isMetadataEnabled): one call, no arguments.
//
//go:noinline
func optionSet(option *uint32) bool {
	return Then(AtomicLoad(option), atomic.LoadUint32(option)) != 0
}

// writeAll stands for a set's exporter (VictoriaMetrics' set.go:75):
// for each entry it rereads the option, then loads the entry's counter,
// both at the same stack every entry (the same frames, the same
// arguments); only the counters' addresses tell the entries apart.
//
//go:noinline
func writeAll(option *uint32, counters []uint64) uint64 {
	var sum uint64
	for i := range counters {
		if optionSet(option) {
			sum++
		}
		sum += Then(AtomicLoad(&counters[i]), atomic.LoadUint64(&counters[i]))
	}
	return sum
}

// scanWithTimeout has workers each run writeAll over one shared table
// while the test waits for them with a 5 s timeout.
func scanWithTimeout(t *testing.T) {
	var option uint32
	const workers, entries = 3, 300
	counters := make([]uint64, entries)
	for i := range counters {
		counters[i] = uint64(i)
	}
	awaitWorkers(t, workers, func() uint64 { return writeAll(&option, counters) })
}

// awaitWorkers starts workers goroutines running work and waits for their
// results with a 5 s timeout, an error if it fires first.
func awaitWorkers(t *testing.T, workers int, work func() uint64) {
	done := make(chan uint64, workers)
	for w := 0; w < workers; w++ {
		Go(func() { Send(done, work()) })
	}
	timeout := After(5 * time.Second)
	for w := 0; w < workers; w++ {
		k := Select(false, RecvCase(done), RecvCase(timeout))
		if k == 1 {
			<-PickRecv(k, 1, timeout)
			t.Errorf("timeout after %d of %d workers", w, workers)
			return
		}
		<-PickRecv(k, 0, done)
	}
}

// Workers that scan a shared table come back to the same stacks at every
// entry, as a polling loop does, but each load of an entry reads a word
// that worker had not read: progress, so the clock must not jump to the
// test's 5 s timeout (VictoriaMetrics' TestWritePrometheusConcurrent after
// TestPushMetrics). Under each strategy: PCT lets one worker rescan what
// another read before it (fresh to it, not to the spin run).
func TestProgressScanAtOneStackIsNoSpin(t *testing.T) {
	for _, strategy := range []string{"random", "pct", "pos"} {
		for _, r := range RunSchedules(t, Config{Strategy: strategy, Schedules: 10, Seed: 1, StepTimeout: 5 * time.Second}, scanWithTimeout, nil) {
			if r.Outcome != "pass" {
				t.Errorf("%s schedule %d: %s %q", strategy, r.Index, r.Outcome, r.Message)
			}
		}
	}
}

// stampEntry stands for writing one entry with a timestamp: it reads the
// clock, with an argument of its own each call.
//
//go:noinline
func stampEntry(counters []uint64, i int) uint64 {
	return uint64(Now().UnixNano()&1) + Then(AtomicLoad(&counters[i]), atomic.LoadUint64(&counters[i]))
}

// Workers that read the clock as they write their entries (a timestamp
// each) progress: time passes for them no faster than a real loop's
// turns would let it, and the test's 5 s timeout does not come first. A
// loop that waits on the clock still sees its deadline pass
// (TestSpinNowLoopSeesTimePass, TestPollingLoopStillMovesTheClock).
func TestProgressStampingEntriesIsNoClockLoop(t *testing.T) {
	const workers, entries = 3, 4000
	body := func(t *testing.T) {
		counters := make([]uint64, entries)
		awaitWorkers(t, workers, func() uint64 {
			var sum uint64
			for i := range counters {
				sum += stampEntry(counters, i)
			}
			return sum
		})
	}
	for _, r := range RunSchedules(t, Config{Schedules: 10, Seed: 1, StepTimeout: 5 * time.Second}, body, nil) {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %q", r.Index, r.Outcome, r.Message)
		}
	}
}
