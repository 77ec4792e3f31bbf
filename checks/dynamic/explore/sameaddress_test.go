package explore

import (
	"os"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestSameAddress: a schedule that failed binding an address in use (the
// same test's server, on a fixed port, in a parallel worker: redcon's
// TestPubSub on :12346) makes its test searched by one worker; another
// failure, or a pass that logged the words, does not.
func TestSameAddress(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		r    rt.Result
		want bool
	}{
		{rt.Result{Outcome: "panic", Message: "panic: listen tcp :12346: bind: address already in use"}, true},
		{rt.Result{Outcome: "test-failure", Message: "test failed: x_test.go:9: listen tcp 127.0.0.1:8080: bind: address already in use"}, true},
		{rt.Result{Outcome: "deadlock", Message: "deadlock: all goroutines are blocked"}, false},
		{rt.Result{Outcome: "pass", Message: "address already in use"}, false},
	} {
		if got := sameAddress(c.r); got != c.want {
			t.Errorf("sameAddress(%s %q) = %v, want %v", c.r.Outcome, c.r.Message, got, c.want)
		}
	}
}

// TestSameAddressStopsOthers: once a test is searched by one worker, the
// other workers' processes still running start no further schedule (their
// stop files), while worker 0's goes on; each worker reads its own file.
// Before, they ran the rest of their schedules, each failing to bind.
func TestSameAddressStopsOthers(t *testing.T) {
	t.Parallel()
	s := &search{opts: Options{Workers: 3}, workDir: t.TempDir(), failures: map[string]*failure{}, owners: map[string]*target{}}
	tg := &target{pkg: rewrite.Package{ImportPath: "example.com/redcon"}, name: "TestPubSub", stats: &TestStats{}}
	exists := func(k int) bool {
		_, err := os.Stat(s.workerStopFile(tg, k))
		return err == nil
	}
	files := map[string]bool{}
	for k := 0; k < 3; k++ {
		files[s.workerStopFile(tg, k)] = true
	}
	if len(files) != 3 || s.workerStopFile(tg, 0) != s.stopFile(tg) {
		t.Fatalf("stop files %v, want three, worker 0's the test's", files)
	}
	s.counted(tg, rt.Result{Outcome: "pass"})
	if exists(0) || exists(1) || exists(2) {
		t.Fatal("a pass stopped a worker")
	}
	s.counted(tg, rt.Result{Outcome: "panic", Message: "panic: listen tcp :12346: bind: address already in use"})
	if !tg.alone || exists(0) || !exists(1) || !exists(2) {
		t.Errorf("alone %v, stop files of workers 0, 1, 2: %v %v %v; want alone, 1 and 2 stopped", tg.alone, exists(0), exists(1), exists(2))
	}
	if len(s.notes) != 1 || !strings.Contains(s.notes[0], "searched by one worker process from then on") {
		t.Errorf("notes %q, want the one-worker note", s.notes)
	}
}

// TestAddrInUseNotTheTests: a search schedule's failure after a listen
// found its address in use (rt.Result.AddrInUse, the error dropped by
// the program) while several workers ran the test is not collected: the
// port may be another worker's (EventBus's TestNetworkBus on :2035, a nil
// listener served, reported unreplayed). With one worker, or on the
// unperturbed schedule, it is the test's own.
func TestAddrInUseNotTheTests(t *testing.T) {
	t.Parallel()
	panicked := func(index int) *childOutcome {
		return &childOutcome{crashed: -1, leftovers: -1, lastRun: index, results: []rt.Result{{Index: index, Seed: 2, Outcome: "panic",
			Message: "panic: runtime error: invalid memory address or nil pointer dereference", AddrInUse: ":2035",
			Decisions: []rt.Decision{{G: 0, Op: "start"}}}}}
	}
	for _, c := range []struct {
		workers  int
		strategy string
		want     int
	}{
		{2, "random", 0},
		{1, "random", 1},
		{2, rt.PlainStrategy, 1},
	} {
		s, tg, _ := newFakeSearch(t, "TestNetworkBus", fakeBudget, 1)
		tg.stats = &TestStats{}
		s.opts.Workers = c.workers
		if keys := s.collect(tg, panicked(1), 0, c.strategy); len(keys) != c.want {
			t.Errorf("%d workers, %s: collected %v, want %d", c.workers, c.strategy, keys, c.want)
		}
	}
	if !sameAddress(rt.Result{Outcome: "panic", Message: "panic: nil pointer", AddrInUse: "127.0.0.1:8080"}) {
		t.Error("sameAddress ignores a listen's address in use the program dropped")
	}
}
