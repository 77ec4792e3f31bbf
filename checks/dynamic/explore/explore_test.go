package explore

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rewrite"
)

func TestStderrParser(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/race_and_fatal.stderr")
	if err != nil {
		t.Fatal(err)
	}
	var p stderrParser
	p.parse(strings.NewReader(string(b)))
	if len(p.races) != 1 {
		t.Fatalf("got %d race reports, want 1", len(p.races))
	}
	rep := p.races[0]
	if rep.Index != 3 {
		t.Errorf("race attributed to schedule %d, want 3", rep.Index)
	}
	if got, want := strings.Join(rep.sites(), " "), "/tmp/rr/main.go:15 /tmp/rr/main.go:14"; got != want {
		t.Errorf("race sites = %q, want %q", got, want)
	}
	if !p.open || p.cur != 4 {
		t.Fatalf("open=%v cur=%d, want schedule 4 left open by the crash", p.open, p.cur)
	}
	f := fromCrash(p.sinceStart.String(), nil, false)
	if f.kind != checks.Fatal || f.message != "fatal error: sync: unlock of unlocked mutex" || f.site != "/tmp/rr/main.go:20" {
		t.Errorf("crash = %s %q at %s, want fatal %q at /tmp/rr/main.go:20", f.kind, f.message, f.site, "fatal error: sync: unlock of unlocked mutex")
	}
	rf, ok := fromRace(rep)
	if !ok {
		t.Fatal("fromRace rejected the report")
	}
	if rf.site != "/tmp/rr/main.go:15" || len(rf.related) != 1 || rf.related[0].Line != 14 {
		t.Errorf("race failure at %s related %v, want main.go:15 related main.go:14", rf.site, rf.related)
	}
	if !strings.Contains(rf.message, "read at main.go:15") || !strings.Contains(rf.message, "previous write at main.go:14") {
		t.Errorf("race message %q lacks the two accesses", rf.message)
	}
}

func TestFailureKey(t *testing.T) {
	t.Parallel()
	a := &failure{kind: checks.Panic, site: "a.go:3", message: "index out of range [5] with length 3"}
	b := &failure{kind: checks.Panic, site: "a.go:3", message: "index out of range [7] with length 2"}
	c := &failure{kind: checks.Panic, site: "a.go:4", message: "index out of range [5] with length 3"}
	if a.key() != b.key() {
		t.Errorf("same panic with other numbers: keys %q and %q differ", a.key(), b.key())
	}
	if a.key() == c.key() {
		t.Errorf("panics at different sites share key %q", a.key())
	}
	p1 := &failure{kind: checks.Panic, site: "a.go:3", message: "close of closed channel", frames: []checks.Frame{{Func: "k.shutdown", File: "/k/a.go", Line: 3}, {Func: "k.TestX.func1", File: "/k/a_test.go", Line: 9}}}
	p2 := &failure{kind: checks.Panic, site: "a.go:3", message: "close of closed channel", frames: []checks.Frame{{Func: "k.shutdown", File: "/k/a.go", Line: 3}, {Func: "k.TestX.func2", File: "/k/a_test.go", Line: 10}}}
	if p1.key() != p2.key() {
		t.Errorf("one panic reached from two function literals: keys %q and %q differ", p1.key(), p2.key())
	}
	d1 := &failure{kind: checks.Deadlock, site: "x.go:1", goroutines: []checks.Goroutine{{Site: "x.go:1"}, {Site: "x.go:2"}}}
	d2 := &failure{kind: checks.Deadlock, site: "x.go:2", goroutines: []checks.Goroutine{{Site: "x.go:2"}, {Site: "x.go:1"}}}
	if d1.key() != d2.key() {
		t.Errorf("one deadlock seen from either goroutine: keys %q and %q differ", d1.key(), d2.key())
	}
}

func TestSameSite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		a, b string
		want bool
	}{
		{"equal", "/a/k/x.go:3", "/a/k/x.go:3", true},
		{"other checkout", "/home/u/k/x.go:3", "/ci/work/k/x.go:3", true},
		{"other line", "/a/k/x.go:3", "/a/k/x.go:4", false},
		{"other file", "/a/k/x.go:3", "/a/k/y.go:3", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sameSite(tt.a, tt.b); got != tt.want {
				t.Errorf("sameSite(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
			}
		})
	}
}

var (
	fakeOnce sync.Once
	fakeBin  string
	fakeErr  error
)

// buildFake builds testdata/fakebin, a stand-in test binary that speaks the
// protocol without a scheduler.
func buildFake(t *testing.T) string {
	t.Helper()
	fakeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "interleave-fakebin-")
		if err != nil {
			fakeErr = err
			return
		}
		fakeBin = filepath.Join(dir, "fake.test")
		out, err := exec.Command("go", "build", "-o", fakeBin, "./testdata/fakebin").CombinedOutput()
		if err != nil {
			fakeErr = &BuildError{Package: "fakebin", Output: string(out)}
		}
	})
	if fakeErr != nil {
		t.Fatal(fakeErr)
	}
	return fakeBin
}

// fakeBudget is the search budget of the fake tests. The fake runs its
// first schedules whatever the deadline (testdata/fakebin), so what the
// tests check does not depend on how fast processes start.
// A worker must still start its first process before the budget ends:
// 2 s leaves a loaded machine room for that.
const fakeBudget = 2 * time.Second

// fakeSearch searches one behaviour of the fake binary.
func fakeSearch(t *testing.T, test string, budget time.Duration) (*Result, string, error) {
	t.Helper()
	return fakeSearchN(t, test, budget, 0)
}

// fakeSchedules bounds the fake searches that need only the fake's first
// schedules (Options.Schedules, per worker): unbounded, the fake runs a
// schedule in microseconds, so a 2 s budget gave tens of thousands of them
// (72,367 for TestDeadlock, half of them failing) and the driver took
// 20 s to 70 s to collect them, longer the faster the machine.
const fakeSchedules = 2 * 8 // twice the fake's minSchedules

// fakeSearchN is fakeSearch with Options.Schedules set to schedules (0:
// bounded by the budget alone).
func fakeSearchN(t *testing.T, test string, budget time.Duration, schedules int) (*Result, string, error) {
	t.Helper()
	s, tg, dir := newFakeSearch(t, test, budget, 2)
	s.opts.Schedules = schedules
	// The fake binary does not replay schedules: no replay check.
	s.noReplayCheck = true
	res, err := s.explore(context.Background(), []*target{tg})
	return res, dir, err
}

// newFakeSearch is a search of the fake binary's test in package
// example.com/k, whose directory is dir, not yet run.
func newFakeSearch(t *testing.T, test string, budget time.Duration, workers int) (s *search, tg *target, dir string) {
	t.Helper()
	bin := buildFake(t)
	dir = t.TempDir()
	opts := Options{Dir: dir, Budget: budget, Workers: workers}
	if err := normalize(&opts); err != nil {
		t.Fatal(err)
	}
	s = &search{opts: opts, failures: map[string]*failure{}, owners: map[string]*target{}, workDir: t.TempDir(), goVersion: "go1.test"}
	tg = &target{pkg: rewrite.Package{ImportPath: "example.com/k", Dir: dir, Tests: []string{test}}, name: test, weight: 1, bin: bin, relDir: "k"}
	return s, tg, dir
}

func TestFakePass(t *testing.T) {
	t.Parallel()
	res, _, err := fakeSearchN(t, "TestPass", fakeBudget, fakeSchedules)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 {
		t.Errorf("got %d findings, want none", len(res.Findings))
	}
	if res.Stats.Schedules == 0 || res.Stats.Tests[0].Schedules != res.Stats.Schedules {
		t.Errorf("stats = %+v, want schedules counted for the test", res.Stats)
	}
}

func TestFakeCrash(t *testing.T) {
	t.Parallel()
	// The crash is confirmed in a fresh process within the budget: a
	// loaded machine that could not start one in time gets twice the
	// budget (at a load of 18 here: "start fake.test: context deadline
	// exceeded", no finding).
	var res *Result
	var dir string
	for budget := fakeBudget; ; budget *= 2 {
		var err error
		res, dir, err = fakeSearch(t, "TestCrash", budget)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) > 0 || budget >= 8*fakeBudget {
			break
		}
		t.Logf("no finding in %v (notes %q); searching again", budget, res.Notes)
	}
	if len(res.Findings) != 1 {
		t.Fatalf("got %d findings, want 1 fatal: %+v (notes %q)", len(res.Findings), res.Findings, res.Notes)
	}
	f := res.Findings[0]
	if f.Kind != checks.Fatal || f.Pos.Line != 12 || f.Rule != checks.DynamicRuleID(checks.Fatal) {
		t.Errorf("finding = %s %s at %v, want fatal at k.go:12", f.Rule, f.Kind, f.Pos)
	}
	if res.Stats.Tests[0].Crashes < 2 {
		t.Errorf("crashes = %d, want the workers restarted after at least 2", res.Stats.Tests[0].Crashes)
	}
	sched, err := ReadSchedule(filepath.Join(dir, f.Schedule))
	if err != nil {
		t.Fatalf("schedule file: %v", err)
	}
	if sched.Seed%7 != 3 || sched.Failure == nil || sched.Failure.Kind != "fatal" || sched.Dir != "k" {
		t.Errorf("schedule = %+v, want a crashing seed and a fatal signature", sched)
	}
	if f.Replay != "interleave replay "+f.Schedule {
		t.Errorf("replay = %q", f.Replay)
	}
}

func TestFakeRaceAndDeadlock(t *testing.T) {
	t.Parallel()
	res, _, err := fakeSearchN(t, "TestRace", fakeBudget, fakeSchedules)
	if err != nil {
		t.Fatal(err)
	}
	// Each worker process reports the race once; dedupe keeps one.
	if len(res.Findings) != 1 || res.Findings[0].Kind != checks.DataRace || res.Findings[0].Pos.Line != 30 || len(res.Findings[0].Related) != 1 {
		t.Fatalf("findings = %+v, want one data race at k_test.go:30 related to :33", res.Findings)
	}
	res, _, err = fakeSearchN(t, "TestDeadlock", fakeBudget, fakeSchedules)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Kind != checks.Deadlock || len(res.Findings[0].Goroutines) != 2 {
		t.Fatalf("findings = %+v, want one deadlock with two goroutines", res.Findings)
	}
	if g := res.Findings[0].Goroutines[0]; g.ID != "g1" || len(g.Stack) != 1 || g.Stack[0].Func != "example.com/k.transfer" {
		t.Errorf("goroutine = %+v, want g1 in example.com/k.transfer", g)
	}
}

func TestFakeSkipAndHang(t *testing.T) {
	// In parallel: its fake process sleeps until killed (wall time, no CPU), and it
	// shares no state with other tests (its own search, temporary
	// directories, the fake built once).
	t.Parallel()
	// The skipping process ends the search at once: a long budget costs
	// nothing and no machine is too slow for it.
	_, _, err := fakeSearch(t, "TestSkip", time.Minute)
	if err == nil || !strings.Contains(err.Error(), "scheduler not linked in yet") {
		t.Errorf("err = %v, want the child's skip message", err)
	}
	start := time.Now()
	res, _, err := fakeSearch(t, "TestHang", fakeBudget)
	if err != nil {
		t.Fatal(err)
	}
	// The fake sleeps an hour: any bound far below that shows it was
	// killed, without asking a loaded machine to be quick.
	if d := time.Since(start); d > fakeBudget+childGrace+time.Minute {
		t.Errorf("a hanging test took %v; the driver should kill it %v after the budget", d, childGrace)
	}
	if len(res.Findings) != 0 || len(res.Notes) == 0 || !strings.Contains(res.Notes[0], "did not finish before the end of its share of the budget") {
		t.Errorf("findings %v notes %q, want no finding and a note that the schedule did not finish", res.Findings, res.Notes)
	}
}

func TestGorace(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ user, want string }{
		{"", "atexit_sleep_ms=0"},
		{"halt_on_error=1", "halt_on_error=1 atexit_sleep_ms=0"},
		{"atexit_sleep_ms=50 log_path=/tmp/r", "atexit_sleep_ms=50 log_path=/tmp/r"},
	} {
		if got := gorace(tt.user); got != tt.want {
			t.Errorf("gorace(%q) = %q, want %q", tt.user, got, tt.want)
		}
	}
}
