package rt

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tickReader is a reader whose constructor starts the goroutine that
// collects on every tick, then (the change) takes an id and publishes a
// field that collect reads: otel's NewPeriodicReader of v1.39.0 (issue
// 8769). The field is an atomic here so that the kernel has no race of
// its own under -race; sawUnset says a tick read it before it was set (an
// atomic too: the test reads it without waiting for the goroutine).
type tickReader struct {
	inst     atomic.Bool
	quit     chan struct{}
	sawUnset atomic.Bool
}

var tickReaderIDs int64

func newTickReader(period time.Duration) *tickReader {
	r := &tickReader{quit: make(chan struct{})}
	Go(func() { r.run(period) })

	// The change: an id, then the field collect reads. The goroutine's
	// line is more than TargetNear lines above.
	Then(Atomic(&tickReaderIDs), atomic.AddInt64(&tickReaderIDs, 1)) // the changed line
	r.inst.Store(true)
	return r
}

func (r *tickReader) run(period time.Duration) {
	tk := NewTicker(period)
	defer TickerStop(tk)
	for {
		k := Select(false, RecvCase(tk.C), RecvCase(r.quit))
		select {
		case <-PickRecv(k, 0, tk.C):
			if !r.inst.Load() {
				r.sawUnset.Store(true)
			}
		case <-PickRecv(k, 1, r.quit):
			return
		}
	}
}

// farSaw counts the schedules whose tick read the field before it was
// set; farSawIn names their subtests.
var (
	farSaw   atomic.Int32
	farMu    sync.Mutex
	farSawIn = map[string]bool{}
)

// farTest makes a reader with a one-minute period, as a test that never
// waits for a tick does, and stops it; with fail set it fails when a tick
// came before the publication.
func farTest(fail bool) func(*testing.T) {
	return func(t *testing.T) {
		r := newTickReader(time.Minute)
		Close(r.quit)
		if r.sawUnset.Load() {
			farSaw.Add(1)
			farMu.Lock()
			farSawIn[scheduleName(t)] = true
			farMu.Unlock()
			if fail {
				t.Error("a tick read the field before the constructor set it")
			}
		}
	}
}

// TestFarEarlyTick: a tick comes when no goroutine can run, and an early
// jump goes at most earlyMax ahead, so a minute-long ticker never ticked
// while the constructor could still run, and the field published after
// the goroutine started was never read before. In pr (EarlySleep and the
// changed line a target) a schedule may jump that far while the goroutine
// at the changed line could run: the tick reads the field before it is
// set, and the schedule replays. Without the target, or without
// EarlySleep, it never happens. A test that fails after such a jump is
// inconclusive: only a data race counts there.
func TestFarEarlyTick(t *testing.T) {
	if os.Getenv("RT_MAIN_CHILD") != "" {
		t.Skip()
	}
	target := []string{changedLine(t)}
	base := Config{Schedules: 200, Seed: 1, Strategy: "random", StepTimeout: 10 * time.Second}
	for _, c := range []struct {
		name  string
		early bool
		tgt   []string
	}{{"without EarlySleep", false, target}, {"without a target", true, nil}} {
		cfg := base
		cfg.EarlySleep, cfg.Targets = c.early, c.tgt
		farSaw.Store(0)
		rs := RunSchedules(t, cfg, farTest(false), nil)
		for _, r := range rs {
			if r.Outcome != "pass" || r.Inconclusive != "" {
				t.Fatalf("%s: schedule %d: %s: %s%s", c.name, r.Index, r.Outcome, r.Message, r.Inconclusive)
			}
		}
		if n := farSaw.Load(); n != 0 {
			t.Errorf("%s: %d schedules read the field early", c.name, n)
		}
		for _, r := range rs {
			if r.Far {
				t.Errorf("%s: schedule %d says its clock jumped far", c.name, r.Index)
			}
		}
	}
	cfg := base
	cfg.EarlySleep, cfg.Targets = true, target
	var found *Result
	farSaw.Store(0)
	farMu.Lock()
	clear(farSawIn)
	farMu.Unlock()
	for _, r := range RunSchedules(t, cfg, farTest(false), nil) {
		if r.Outcome != "pass" || r.Inconclusive != "" {
			t.Fatalf("schedule %d: %s: %s%s", r.Index, r.Outcome, r.Message, r.Inconclusive)
		}
		farMu.Lock()
		saw := farSawIn["schedule-"+strconv.Itoa(r.Index)]
		farMu.Unlock()
		if saw && found == nil {
			found = &r
		}
		if saw && !r.Far {
			t.Errorf("schedule %d ticked before the field was set, but its Result does not say the clock jumped far", r.Index)
		}
	}
	t.Logf("%d of %d schedules read the field early", farSaw.Load(), cfg.Schedules)
	if found == nil {
		t.Fatal("no schedule ticked before the changed line published the field")
	}
	farSaw.Store(0)
	rs := RunSchedules(t, Config{Replay: &Schedule{Seed: found.Seed, Decisions: found.Decisions}, StepTimeout: 10 * time.Second}, farTest(false), nil)
	if len(rs) != 1 || rs[0].Diverged != "" || farSaw.Load() != 1 {
		t.Errorf("replay: %+v (early reads %d), want the early read again", rs, farSaw.Load())
	}

	// In a process of its own: the schedules' tests fail for real, and
	// after a far jump that is inconclusive (only a data race counts).
	cfg.Test = "TestFarTickFails"
	rs, out, _ := runMain(t, cfg)
	far := 0
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Fatalf("schedule %d: a failure after a far jump told as the code's: %s: %s", r.Index, r.Outcome, r.Message)
		}
		if strings.Contains(r.Inconclusive, "only a data race counts") {
			far++
		}
	}
	if len(rs) != 200 || far == 0 {
		t.Errorf("%d schedules, %d of them inconclusive after a far jump; want 200, some\n%s", len(rs), far, out)
	}
}

// scheduleName is a schedule's subtest name without its test's name and
// the "#01" go test adds to a name used before.
func scheduleName(t *testing.T) string {
	n := t.Name()
	n = n[strings.LastIndex(n, "/")+1:]
	if i := strings.Index(n, "#"); i >= 0 {
		n = n[:i]
	}
	return n
}

// changedLine is the "farearly_test.go:N" site of the kernel's changed line.
func changedLine(t *testing.T) string {
	b, err := os.ReadFile("farearly_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(l, "// the changed line") {
			return "farearly_test.go:" + strconv.Itoa(i+1)
		}
	}
	t.Fatal("farearly_test.go has no changed line")
	return ""
}
