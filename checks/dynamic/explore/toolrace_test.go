package explore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/internal/testctx"
)

// TestToolRaceAccess: which access of a race report the runtime made on
// its own behalf.
func TestToolRaceAccess(t *testing.T) {
	t.Parallel()
	fr := func(fn, file string) checks.Frame { return checks.Frame{Func: fn, File: file, Line: 7} }
	rtFile := "/tmp/x/m/interleavert/"
	std := goroot() + "/src/"
	for _, c := range []struct {
		name   string
		frames []checks.Frame
		own    bool
	}{
		{"user", []checks.Frame{fr("m/p.f", "/m/p/p.go"), fr("m/interleavert.childMain", rtFile+"api.go")}, false},
		{"timerOf", []checks.Frame{fr("reflect.Value.Field", std+"reflect/value.go"), fr("m/interleavert.timerOf", rtFile+"clock.go"),
			fr("m/interleavert.withDeadline", rtFile+"clock.go"), fr("m/interleavert.WithTimeout", rtFile+"clock.go"), fr("m/p.TestX", "/m/p/p_test.go")}, true},
		{"shadow", []checks.Frame{fr("m/interleavert.(*sched).decide", rtFile+"decide.go")}, true},
		{"close", []checks.Frame{fr("runtime.closechan", std+"runtime/chan.go"), fr("m/interleavert.Close[...]", rtFile+"api.go"), fr("m/p.f", "/m/p/p.go")}, false},
		{"wg", []checks.Frame{fr("sync.(*WaitGroup).Add", std+"sync/waitgroup.go"), fr("m/interleavert.WaitGroupAdd", rtFile+"api.go"), fr("m/p.f", "/m/p/p.go")}, false},
		{"range", []checks.Frame{fr("runtime.mapiterinit", std+"runtime/map.go"), fr("m/interleavert.collectKeys[...]", rtFile+"maprange.go"),
			fr("m/interleavert.MapIter[...]", rtFile+"maprange.go"), fr("m/p.f", "/m/p/p.go")}, false},
		{"next", []checks.Frame{fr("m/interleavert.(*MapIt[...]).Next", rtFile+"maprange.go"), fr("m/p.f", "/m/p/p.go")}, false},
		{"forwarder", []checks.Frame{fr("runtime.chansend1", std+"runtime/chan.go"), fr("m/interleavert.PickSend[...].func1", rtFile+"api.go")}, false},
		{"stdlib only", []checks.Frame{fr("runtime.chansend1", std+"runtime/chan.go")}, false},
	} {
		if _, got := rtOwnFrame(raceAccess{What: "Read at 0x1 by goroutine 3", Frames: c.frames}); got != c.own {
			t.Errorf("%s: own = %v, want %v", c.name, got, c.own)
		}
	}
}

// TestToolRaceGenericNames: the race detector names a generic function
// with its type arguments whole ("…interleavert.MapIter[go.shape.map[string]
// github.com/alexedwards/scs/v2/memstore.item,…]"); a range over the
// user's map of the user's structs is still the user's access, not the
// tool's (scs's TestCleanupInterval was noted "a data race of
// interleave's own runtime").
func TestToolRaceGenericNames(t *testing.T) {
	t.Parallel()
	rep := parseRace(`WARNING: DATA RACE
Read at 0x00c0000a4720 by goroutine 9:
  github.com/alexedwards/scs/v2/memstore/interleavert.MapIter[go.shape.map[string]github.com/alexedwards/scs/v2/memstore.item,go.shape.string,go.shape.struct { github.com/alexedwards/scs/v2/memstore.object interface {}; github.com/alexedwards/scs/v2/memstore.expiration int64 }]()
      /w/memstore/interleavert/maprange.go:72 +0xa9
  github.com/alexedwards/scs/v2/memstore.(*MemStore).deleteExpired()
      /w/memstore/memstore.go:135 +0x44

Previous write at 0x00c0000a4720 by goroutine 8:
  runtime.mapassign_faststr()
      ` + goroot() + `/src/internal/runtime/maps/runtime_faststr.go:263 +0x0
  github.com/alexedwards/scs/v2/memstore.TestCleanupInterval()
      /w/memstore/memstore_test.go:114 +0x9a
`)
	if len(rep.Accesses) != 2 {
		t.Fatalf("parsed %d accesses, want 2", len(rep.Accesses))
	}
	if why, ok := toolRace(rep); ok {
		t.Errorf("the user's range told as the tool's race: %s", why)
	}
}

// toolallocDir is the nested module of tests counting allocations.
const toolallocDir = "../testdata/toolalloc"

// TestToolAllocsIsNote (issue 21 item 2): built with -tags
// interleave_selfalloc the runtime allocates at the scheduling points of
// every schedule but the unperturbed one (as the targeted strategy's did
// in go-redis's TestAllTryTransitionUsePredefinedSlices): a test counting
// allocations fails there and plain go test passes, a note naming the
// cause, not a finding, whatever its message says: allocations named
// (TestLockedCounterAllocs), a testify-style "expected: 0 actual : 2" of a
// helper package's AllocsPerRun (TestLockedCounterEqual, as ttlcache's
// Test_Cache_Get), a bare number of ReadMemStats's Mallocs
// (TestLockedCounterMemStats). A test whose code allocates fails plain go
// test too, and a lost update in a test that also counts allocations
// (TestLostUpdateCounted) is the code's: findings, replayed.
func TestToolAllocsIsNote(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	dir, err := filepath.Abs(toolallocDir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testctx.New(t)
	// Instrumented and built once, for the search and the replays.
	b, err := NewBuild(ctx, BuildOptions{Dir: dir, Tags: []string{"interleave_selfalloc"}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	res, err := Run(ctx, Options{Dir: dir, Budget: 3 * time.Minute, Schedules: 20, Seed: 1,
		Tags: []string{"interleave_selfalloc"}, SchedulesDir: t.TempDir(), Build: b})
	if err != nil {
		t.Fatal(err)
	}
	for _, test := range []string{"TestLockedCounterAllocs", "TestLockedCounterEqual", "TestLockedCounterMemStats"} {
		found := false
		for _, n := range res.Notes {
			found = found || strings.HasPrefix(n, test+": not reported, the tool's doing: it fails counting allocations")
		}
		if !found {
			t.Errorf("no note of %s's allocations; notes:\n%s", test, strings.Join(res.Notes, "\n"))
		}
	}
	checkFindings(ctx, t, res, findingCheck{dir: dir, build: b, Want: testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestLockedCounterAllocs": "", "TestLockedCounterEqual": "", "TestLockedCounterMemStats": "",
			"TestLockedAppendAllocs": checks.TestFailure, "TestLostUpdateCounted": checks.TestFailure},
		Sites: map[string]string{"TestLockedAppendAllocs": "toolalloc_test.go:31|toolalloc_test.go:39", "TestLostUpdateCounted": "counts_test.go:57|counts_test.go:76"},
		Msgs: map[string][]string{"TestLockedAppendAllocs": {"append: ", "allocations per run, want 0"},
			"TestLostUpdateCounted": {"n = 1 after two increments, want 2"}},
	}})
	for _, f := range res.Findings {
		if f.Test == "TestLockedAppendAllocs" && !f.PlainGo.Fails() {
			t.Errorf("TestLockedAppendAllocs: plain go test %s, want it failing too", f.PlainGo.Label())
		}
	}
}

func TestCountsAllocs(t *testing.T) {
	t.Parallel()
	counted := []float64{2, 45}
	for msg, want := range map[string]bool{
		"test failed: x_test.go:23: increment: 2 allocations per run, want 0":                   true,
		"test failed: x_test.go:9: Error: Should be <= 2, got 34: allocs":                       true,
		"test failed: x_test.go:9: mallocs = 3":                                                 true,
		"test failed: cache_test.go:672: \n\tError: Not equal: \n\texpected: 0\n\tactual  : 45": true,
		"test failed: x_test.go:9: got 2, want 0":                                               true,
		"test failed: x_test.go:45: allocator returned nil":                                     false,
		"test failed: x_test.go:9: got 3 items, want 4":                                         false,
		"test failed: x_test.go:9: v45.1 of item2 missing":                                      false,
	} {
		if got := countsAllocs(&failure{kind: checks.TestFailure, message: msg, allocReads: 1, allocCounts: counted}); got != want {
			t.Errorf("countsAllocs(%q) = %v, want %v", msg, got, want)
		}
		// A test that read no count of allocations fails on its own words.
		if countsAllocs(&failure{kind: checks.TestFailure, message: msg}) {
			t.Errorf("countsAllocs(%q) with no count read = true, want false", msg)
		}
	}
}

// TestUnwoundRace: a race whose access ran in a panic rt raised to unwind
// a goroutine after its schedule ended (go-deadlock's deferred restore of
// a global, run when rt unwound the test blocked at its last receive) is
// the tool's doing, a note; the same report printed before the schedule
// ended (no rt.MarkerUnwind) is the code's.
func TestUnwoundRace(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/unwound_race.stderr")
	if err != nil {
		t.Fatal(err)
	}
	var p stderrParser
	p.parse(strings.NewReader(string(b)))
	if len(p.races) != 2 {
		t.Fatalf("got %d race reports, want 2", len(p.races))
	}
	after, before := p.races[0], p.races[1]
	if !after.Unwinding || before.Unwinding {
		t.Fatalf("unwinding: schedule 6 %v, schedule 7 %v; want true, false", after.Unwinding, before.Unwinding)
	}
	n, tool := toolRace(after)
	if !tool || !strings.Contains(n, "a deferred function that ran only because interleave unwound") || !strings.Contains(n, "write at synctest_comparison_test.go:21") {
		t.Errorf("after the schedule's end: tool %v, note %q", tool, n)
	}
	if n, tool := toolRace(before); tool {
		t.Errorf("before the schedule's end: noted as the tool's: %q", n)
	}
	if _, ok := fromRace(before); !ok {
		t.Errorf("before the schedule's end: no finding")
	}
	// While goroutines unwind, an access outside the unwinding panic (a
	// timer's callback still running) races as it would under go test.
	outside := parseRace(strings.Replace(after.Text, "  runtime.gopanic()\n", "  runtime.chansend1()\n", 1))
	outside.Unwinding = true
	if n, tool := toolRace(outside); tool {
		t.Errorf("after the schedule's end, no access in rt's panic: noted as the tool's: %q", n)
	}
}
