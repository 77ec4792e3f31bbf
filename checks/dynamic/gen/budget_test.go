package gen

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// The sequential runs are paid from the budget: the search gets the rest,
// the base check's tenth set aside, at least replayReserve (a quarter)
// when the sequential runs overran their part, but never more than what
// is left and 5%: the budget is kept within 5%. gocron's case (27.8 s,
// 23.1 s of sequential runs at load 30) left the search 2.8 s, and the
// restart deadlock its unperturbed run found was not replayed; the whole
// quarter on top (6.95 s) then took pr 7.6% past -budget. pr now adds the
// reserve to gen's share out of the dynamic search's (ReplayReserve):
// 8.7 s for the same sequential runs, within the budget.
func TestSearchBudget(t *testing.T) {
	for _, c := range []struct {
		budget, seq time.Duration
		base        string
		want        time.Duration
	}{
		{30 * time.Second, 10 * time.Second, "", 20 * time.Second},
		{30 * time.Second, 0, "", 30 * time.Second},
		{30 * time.Second, 10 * time.Second, "/base", 17 * time.Second},
		{30 * time.Second, 25 * time.Second, "", 6500 * time.Millisecond},                                                               // the reserve past the sequential runs' end, within 5%
		{30 * time.Second, time.Minute, "", -28500 * time.Millisecond},                                                                  // nothing left: no search
		{27800 * time.Millisecond, 23100 * time.Millisecond, "/base", 3310 * time.Millisecond},                                          // gocron alone: within 5%
		{27800*time.Millisecond + ReplayReserve(27800*time.Millisecond), 23100 * time.Millisecond, "/base", 8687500 * time.Microsecond}, // gocron in pr
		{0, time.Minute, "", 0}, // no budget: no end
	} {
		if got := searchBudget(c.budget, 0, c.seq, c.base); got != c.want {
			t.Errorf("searchBudget(%v, %v, %q) = %v, want %v", c.budget, c.seq, c.base, got, c.want)
		}
	}
	// Whatever the sequential runs took, a search that runs ends with the
	// base check's part within 5% of the budget.
	budget := 40 * time.Second
	for seq := time.Duration(0); seq <= 2*budget; seq += 500 * time.Millisecond {
		for _, base := range []string{"", "/base"} {
			sb := searchBudget(budget, 0, seq, base)
			if sb >= minSearch && seq+sb+baseReserve(budget, base) > budget+budget/20 {
				t.Errorf("sequential %v, base %q: search %v ends past 5%% of %v", seq, base, sb, budget)
			}
		}
	}
}

// The sequential check's first round always runs; the others only when a
// whole round (15 s: a blocking case fails by itself) ends by their end,
// and never more than maxFeedbackRounds.
func TestAnotherRound(t *testing.T) {
	t0 := time.Unix(1000, 0)
	until := t0.Add(25 * time.Second)
	for _, c := range []struct {
		round int
		now   time.Time
		until time.Time
		want  bool
	}{
		{0, t0.Add(time.Hour), until, true},
		{1, t0.Add(10 * time.Second), until, true},
		{1, t0.Add(15 * time.Second), until, false}, // 10 s left: a round would run 5 s past
		{1, t0.Add(25 * time.Second), until, false},
		{3, t0.Add(time.Hour), time.Time{}, true},
		{maxFeedbackRounds, t0, time.Time{}, false},
	} {
		if got := anotherRound(c.round, c.now, c.until); got != c.want {
			t.Errorf("anotherRound(%d, %v, %v) = %v, want %v", c.round, c.now.Sub(t0), c.until.Sub(t0), got, c.want)
		}
	}
}

// go test's build time is until its first test binary started: the
// sequential runs are charged their run time only.
func TestBuildTime(t *testing.T) {
	began := time.Unix(1000, 0)
	out := []byte(`{"Time":"1970-01-01T00:16:52Z","Action":"start","Package":"m/p"}
{"Time":"1970-01-01T00:16:53Z","Action":"run","Package":"m/p","Test":"TestA"}
{"Time":"1970-01-01T00:16:54Z","Action":"pass","Package":"m/p","Test":"TestA"}
{"Time":"1970-01-01T00:16:51Z","Action":"start","Package":"m/q"}
`)
	st, _, started := parseTestJSON(out)
	if st["m/p.TestA"] != "pass" {
		t.Fatalf("status %v", st)
	}
	if got, want := buildTime(began, started, began.Add(20*time.Second)), 11*time.Second; got != want {
		t.Errorf("build time %v, want %v (until the first start)", got, want)
	}
	if got, want := buildTime(began, time.Time{}, began.Add(20*time.Second)), 20*time.Second; got != want {
		t.Errorf("build time with no start %v, want all of it, %v", got, want)
	}
}

// Every round stops at the sequential runs' end, the first too: go test's
// -timeout is what is left, but enough for a blocking case to fail.
func TestRoundTimeout(t *testing.T) {
	t0 := time.Unix(1000, 0)
	until := t0.Add(40 * time.Second)
	for _, c := range []struct {
		now   time.Time
		until time.Time
		want  string
	}{
		{t0, until, "40s"},
		{t0, time.Time{}, "30m"},
		{t0.Add(10 * time.Second), until, "30s"},
		{t0.Add(39 * time.Second), until, (sequentialTimeout + 5*time.Second).String()},
	} {
		if !strings.Contains(sequentialHelpers, "const genSequentialTimeout = 10 * time.Second") {
			t.Fatal("sequentialTimeout is not the generated file's genSequentialTimeout")
		}
		if got := roundTimeout(c.now, c.until); got != c.want {
			t.Errorf("roundTimeout(%v) = %s, want %s", c.now.Sub(t0), got, c.want)
		}
	}
}

// The sequential check keeps its end, its first round and the base's
// rounds too: each go test gets what is left as -timeout (a round that
// ends past it leaves the rest undecided), counted on a fake clock and a
// fake go test. Without the bound, the first round's -timeout was 30m and
// the base's 10m, six rounds each.
func TestFeedbackRoundsEnd(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	root, base := headAndBase(t)
	w := &pkgWork{pkg: pkg, gen: g, dir: root, cases: g.Generate(ts["Hits"], 4)}
	reports := map[*Target]*TypeReport{ts["Hits"]: {}}
	now := time.Unix(1000, 0)
	until := now.Add(20 * time.Second)
	type call struct {
		dir, timeout string
		names        int
	}
	var calls []call
	first := pkg.PkgPath + "." + w.cases[0].Name
	oldGoTest, oldClock := goTest, clock
	t.Cleanup(func() { goTest, clock = oldGoTest, oldClock })
	eachByFake(t)
	clock = func() time.Time { return now }
	goTest = func(_ context.Context, dir, timeout string, _ int, _, names, _ []string, built *time.Duration) (map[string]string, map[string][]byte, string, error) {
		calls = append(calls, call{dir, timeout, len(names)})
		*built += 5 * time.Second // the build: not charged
		now = now.Add(5*time.Second + 30*time.Second)
		if dir == root {
			// The first case timed out; the others did not run.
			return map[string]string{}, map[string][]byte{first: []byte("panic: test timed out after 20s\n")}, "", nil
		}
		return map[string]string{}, map[string][]byte{}, "", nil // base: nothing ran
	}
	var built time.Duration
	if _, err := feedback(context.Background(), root, base, []*pkgWork{w}, reports, 2, nil, until, &built); err != nil {
		t.Fatal(err)
	}
	want := []call{{root, "20s", 4}, {base, (sequentialTimeout + 5*time.Second).String(), 1}}
	if !slices.Equal(calls, want) {
		t.Errorf("go test runs %v, want %v", calls, want)
	}
	undecided := 0
	for _, d := range reports[ts["Hits"]].Dropped {
		if strings.Contains(d, "the budget of the sequential runs ran out") {
			undecided++
		}
	}
	if undecided != 3 {
		t.Errorf("dropped %q, want 3 undecided for the budget", reports[ts["Hits"]].Dropped)
	}
}

// The shapes are decided in rounds of their own, on the head and on the
// base commit: random cases that crash the process, one a round, no
// longer leave them undecided (gocron's StartAsync/Stop restart was "not
// decided (the process crashed too often)", then, once decided, not run
// to the end on the base), counted on a fake go test.
func TestFeedbackShapesFirst(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	root, base := headAndBase(t)
	shapes := g.Shapes(ts["Pump"], 8)
	if len(shapes) == 0 {
		t.Fatal("no shapes for Pump")
	}
	w := &pkgWork{pkg: pkg, gen: g, dir: root, cases: append(append([]*Case(nil), shapes...), g.Generate(ts["Pump"], 8)...)}
	reports := map[*Target]*TypeReport{ts["Pump"]: {}}
	oldGoTest, oldClock := goTest, clock
	t.Cleanup(func() { goTest, clock = oldGoTest, oldClock })
	eachByFake(t)
	now := time.Unix(1000, 0)
	until := now.Add(20 * time.Second) // the base gets one round
	clock = func() time.Time { return now }
	var calls [][]string
	goTest = func(_ context.Context, dir, _ string, _ int, _, names, _ []string, _ *time.Duration) (map[string]string, map[string][]byte, string, error) {
		now = now.Add(5 * time.Second)
		if dir == root {
			calls = append(calls, names)
		}
		st, outs := map[string]string{}, map[string][]byte{}
		// Any random case in the round crashes the process first.
		for _, n := range names {
			if !slices.ContainsFunc(shapes, func(c *Case) bool { return c.Name == n }) {
				outs[pkg.PkgPath+"."+n] = []byte("panic: reflect: call of reflect.Value.Type on zero Value\n")
				return st, outs, "", nil
			}
		}
		for _, n := range names {
			if dir == base {
				st[pkg.PkgPath+"."+n] = "pass"
				continue
			}
			st[pkg.PkgPath+"."+n] = "fail"
			outs[pkg.PkgPath+"."+n] = []byte("    x_test.go:9: blocks when run sequentially\n")
		}
		return st, outs, "", nil
	}
	var built time.Duration
	if _, err := feedback(context.Background(), root, base, []*pkgWork{w}, reports, 2, nil, until, &built); err != nil {
		t.Fatal(err)
	}
	if len(calls) == 0 || len(calls[0]) != len(shapes) {
		t.Fatalf("first round ran %v, want the %d shapes alone", calls, len(shapes))
	}
	for _, c := range shapes {
		if !c.OnBase {
			t.Errorf("%s: not kept for passing on the base; dropped: %q", c.Name, reports[ts["Pump"]].Dropped)
		}
	}
}

// go test's own exit ends the run even when a process one of its tests
// started still holds the output open: a fake go that leaves such a
// process behind. Without cmd.WaitDelay, goTestJSON waits for it (an
// hour here).
func TestGoTestLeftProcess(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	script := "#!/bin/sh\nsleep 3600 &\necho $! > " + pidFile + "\necho '{\"Action\":\"start\",\"Package\":\"m\"}'\nexit 0\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Cleanup(func() {
		if b, err := os.ReadFile(pidFile); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				if p, err := os.FindProcess(pid); err == nil {
					p.Kill()
				}
			}
		}
	})
	var built time.Duration
	if _, _, _, err := goTestJSON(context.Background(), dir, "30s", 1, nil, []string{"TestX"}, []string{"./..."}, &built); err != nil {
		t.Fatal(err)
	}
}

// A round of the shapes alone that runs nothing (zap's package reported
// no test of it) does not end the check: all cases run together, as
// before. Fails without it: "the generated tests did not run".
func TestFeedbackShapesRanNothing(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	root := t.TempDir()
	shapes := g.Shapes(ts["Pump"], 8)
	w := &pkgWork{pkg: pkg, gen: g, dir: root, cases: append(append([]*Case(nil), shapes...), g.Generate(ts["Pump"], 8)...)}
	reports := map[*Target]*TypeReport{ts["Pump"]: {}}
	oldGoTest := goTest
	t.Cleanup(func() { goTest = oldGoTest })
	eachByFake(t)
	goTest = func(_ context.Context, _, _ string, _ int, _, names, _ []string, _ *time.Duration) (map[string]string, map[string][]byte, string, error) {
		st := map[string]string{}
		if len(names) == len(shapes) {
			return st, map[string][]byte{pkg.PkgPath + ".": []byte("FAIL\n")}, "", nil
		}
		for _, n := range names {
			st[pkg.PkgPath+"."+n] = "pass"
		}
		return st, map[string][]byte{}, "", nil
	}
	var built time.Duration
	if _, err := feedback(context.Background(), root, "", []*pkgWork{w}, reports, 100, nil, time.Time{}, &built); err != nil {
		t.Fatal(err)
	}
	if got := reports[ts["Pump"]].Kept; got != len(w.cases) {
		t.Errorf("%d kept, want all %d (dropped %q)", got, len(w.cases), reports[ts["Pump"]].Dropped)
	}
}

// headAndBase makes the head's and the base commit's directories of a
// fake sequential check.
func headAndBase(t *testing.T) (root, base string) {
	t.Helper()
	tmp := t.TempDir()
	root, base = filepath.Join(tmp, "head"), filepath.Join(tmp, "base")
	for _, d := range []string{root, base} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return root, base
}

// TestUnsearchedNote (e2e TestPRCgoPackageLeftOut at load): a search whose
// budget ended before its test processes started a schedule, none seen
// hanging, is a note saying so (with the user's paths), not gen failing;
// any other error of the search stays an error.
func TestUnsearchedNote(t *testing.T) {
	r := &run{copyRoot: "/tmp/interleave-gen-1", modRoot: "/src/m"}
	err := fmt.Errorf("%w:\nthe test process was stopped at the end of its share of the budget before its first schedule, 800ms after its last output: not seen hanging (the watchdog's limit is 5s); a larger budget gives it time to start; its last output:\n/tmp/interleave-gen-1/p/x.go:1", explore.ErrNoScheduleInBudget)
	note, ok := r.unsearchedNote(err)
	if !ok || !strings.HasPrefix(note, "the generated tests kept were not searched: "+explore.ErrNoScheduleInBudget.Error()+": the test process was stopped") ||
		!strings.Contains(note, "not seen hanging") || strings.Contains(note, "\n") {
		t.Errorf("note %q, %v; want one line saying the budget ended before a schedule", note, ok)
	}
	if note, ok := r.unsearchedNote(errors.New("the instrumented test binary ran no schedules:\nthe test process hung before its first schedule")); ok {
		t.Errorf("a hang became the note %q; want it kept an error", note)
	}
}

// eachByFake makes goEach run each case alone through the fake goTest
// (a process of its own), its status crash when the fake gave none.
func eachByFake(t *testing.T) {
	old := goEach
	t.Cleanup(func() { goEach = old })
	goEach = func(ctx context.Context, dir, timeout string, tags []string, runs []caseRun, built *time.Duration) (map[string]string, map[string][]byte, error) {
		st, outs := map[string]string{}, map[string][]byte{}
		for _, r := range runs {
			s, o, _, err := goTest(ctx, dir, timeout, 1, tags, []string{r.Name}, []string{r.Pattern}, built)
			if err != nil {
				return nil, nil, err
			}
			// Alone, all its process's output is the case's.
			st[r.Key], outs[r.Key] = s[r.Key], append(o[r.Key], o[strings.TrimSuffix(r.Key, r.Name)]...)
			if st[r.Key] == "" {
				st[r.Key] = "crash"
			}
		}
		return st, outs, nil
	}
}

// TestFeedbackManyCrashers: more cases that crash their process than the
// check has rounds (gocron v1.15.0's seven, which panic in the
// scheduler's goroutine, left its restart case "not decided (the process
// crashed too often)") leave every other case decided: after a crash each
// case runs alone (goEach). The fake go test runs its cases in order and
// dies at the first crashing one. Fails without goEach: 8 crashers, 6
// rounds, the cases after them dropped.
func TestFeedbackManyCrashers(t *testing.T) {
	for _, told := range []bool{true, false} {
		t.Run(map[bool]string{true: "told", false: "untold"}[told], func(t *testing.T) { testManyCrashers(t, told) })
	}
}

// testManyCrashers is TestFeedbackManyCrashers with the crash's output
// told in the crashing case's or, untold, in the package's alone (the
// cases left without a status: gocron's shapes once).
func testManyCrashers(t *testing.T, told bool) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	root := t.TempDir()
	w := &pkgWork{pkg: pkg, gen: g, dir: root, cases: g.Generate(ts["Pump"], 24)}
	if len(w.cases) < 20 {
		t.Fatalf("%d cases generated, want 20 or more", len(w.cases))
	}
	crashes := map[string]bool{}
	for i := 0; i < len(w.cases) && len(crashes) < 8; i += 3 {
		crashes[w.cases[i].Name] = true
	}
	reports := map[*Target]*TypeReport{ts["Pump"]: {}}
	oldGoTest := goTest
	t.Cleanup(func() { goTest = oldGoTest })
	eachByFake(t)
	processes := 0
	goTest = func(_ context.Context, _, _ string, _ int, _, names, _ []string, _ *time.Duration) (map[string]string, map[string][]byte, string, error) {
		processes++
		st, outs := map[string]string{}, map[string][]byte{}
		for _, n := range names {
			if crashes[n] {
				key := pkg.PkgPath + "." + n
				if !told {
					key = pkg.PkgPath + "."
				}
				outs[key] = []byte("panic: reflect: call of reflect.Value.Type on zero Value\n")
				break
			}
			st[pkg.PkgPath+"."+n] = "pass"
		}
		return st, outs, "", nil
	}
	var built time.Duration
	if _, err := feedback(context.Background(), root, "", []*pkgWork{w}, reports, 100, nil, time.Time{}, &built); err != nil {
		t.Fatal(err)
	}
	r := reports[ts["Pump"]]
	if want := len(w.cases) - len(crashes); r.Kept != want {
		t.Errorf("%d kept, want the %d that do not crash (dropped %q)", r.Kept, want, r.Dropped)
	}
	crashed := 0
	for _, d := range r.Dropped {
		if strings.Contains(d, "crashes when run sequentially: panic: reflect") {
			crashed++
		} else {
			t.Errorf("dropped %q, want only the crashing cases", d)
		}
	}
	if crashed != len(crashes) {
		t.Errorf("%d dropped as crashing, want %d", crashed, len(crashes))
	}
	t.Logf("%d go test processes", processes)
}

// TestOnBaseAloneAfterHeadCrash: the cases that failed on the head go to
// the base commit each in its own process when one of them crashed on
// the head: seven shapes that panic there too would otherwise take the
// restart shape down round after round (gocron v1.15.0's, which fails on
// the head and passes on the base, was never decided there). The fake go
// test runs its cases in order and dies at the first crashing one. Fails
// with onBase's shared rounds: six rounds, seven crashers, the restart
// shape last.
func TestOnBaseAloneAfterHeadCrash(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	root, base := headAndBase(t)
	shapes := g.Shapes(ts["Pump"], 8)
	if len(shapes) < 2 {
		t.Fatalf("%d shapes for Pump, want 2 or more", len(shapes))
	}
	var cases []*Case
	crashes := map[string]bool{}
	for i := 0; len(crashes) < 7; i++ {
		c := *shapes[i%(len(shapes)-1)]
		c.Name = fmt.Sprintf("%s_crash%d", c.Name, i)
		crashes[c.Name] = true
		cases = append(cases, &c)
	}
	restart := shapes[len(shapes)-1]
	cases = append(cases, restart)
	w := &pkgWork{pkg: pkg, gen: g, dir: root, cases: cases}
	reports := map[*Target]*TypeReport{ts["Pump"]: {}}
	oldGoTest, oldClock := goTest, clock
	t.Cleanup(func() { goTest, clock = oldGoTest, oldClock })
	eachByFake(t)
	// The head's rounds take no time; the base's first one leaves no
	// time for a second.
	now := time.Unix(1000, 0)
	until := now.Add(sequentialTimeout + 6*time.Second)
	clock = func() time.Time { return now }
	goTest = func(_ context.Context, dir, _ string, _ int, _, names, _ []string, _ *time.Duration) (map[string]string, map[string][]byte, string, error) {
		if dir == base {
			now = now.Add(5 * time.Second)
		}
		st, outs := map[string]string{}, map[string][]byte{}
		for _, n := range names {
			key := pkg.PkgPath + "." + n
			switch {
			case crashes[n]:
				outs[key] = []byte("panic: reflect: call of reflect.Value.Type on zero Value\n")
				return st, outs, "", nil
			case dir == base:
				st[key] = "pass"
			default:
				st[key] = "fail"
				outs[key] = []byte("    x_test.go:9: blocks when run sequentially\n")
			}
		}
		return st, outs, "", nil
	}
	var built time.Duration
	if _, err := feedback(context.Background(), root, base, []*pkgWork{w}, reports, 2, nil, until, &built); err != nil {
		t.Fatal(err)
	}
	if !restart.OnBase {
		t.Errorf("%s: not kept for passing on the base; dropped: %q", restart.Name, reports[ts["Pump"]].Dropped)
	}
}

// TestFeedbackAloneAllAtOnce: once the cases run each alone, the shapes
// no longer go first by themselves (a crash cuts no other's wait short):
// one round alone decides the shapes and the rest, where the time left
// gives one (gocron v1.15.0's random cases were "not decided (the budget
// of the sequential runs ran out)" behind a round of shapes). Each round
// takes 5 s of the fake clock.
func TestFeedbackAloneAllAtOnce(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	root := t.TempDir()
	shapes := g.Shapes(ts["Pump"], 8)
	if len(shapes) == 0 {
		t.Fatal("no shapes for Pump")
	}
	w := &pkgWork{pkg: pkg, gen: g, dir: root, cases: append(append([]*Case(nil), shapes...), g.Generate(ts["Pump"], 8)...)}
	crasher := shapes[0].Name
	reports := map[*Target]*TypeReport{ts["Pump"]: {}}
	oldGoTest, oldEach, oldClock := goTest, goEach, clock
	t.Cleanup(func() { goTest, goEach, clock = oldGoTest, oldEach, oldClock })
	now := time.Unix(1000, 0)
	until := now.Add(5*time.Second + sequentialTimeout + 7*time.Second) // two rounds
	clock = func() time.Time { return now }
	outcome := func(n string) (string, []byte) {
		if n == crasher {
			return "", []byte("panic: reflect: call of reflect.Value.Type on zero Value\n")
		}
		return "pass", nil
	}
	goTest = func(_ context.Context, _, _ string, _ int, _, names, _ []string, _ *time.Duration) (map[string]string, map[string][]byte, string, error) {
		now = now.Add(5 * time.Second)
		st, outs := map[string]string{}, map[string][]byte{}
		for _, n := range names {
			s, o := outcome(n)
			if s == "" {
				outs[pkg.PkgPath+"."+n] = o
				break
			}
			st[pkg.PkgPath+"."+n] = s
		}
		return st, outs, "", nil
	}
	goEach = func(_ context.Context, _, _ string, _ []string, runs []caseRun, _ *time.Duration) (map[string]string, map[string][]byte, error) {
		now = now.Add(5 * time.Second)
		st, outs := map[string]string{}, map[string][]byte{}
		for _, r := range runs {
			s, o := outcome(r.Name)
			st[r.Key], outs[r.Key] = cmp.Or(s, "crash"), o
		}
		return st, outs, nil
	}
	var built time.Duration
	if _, err := feedback(context.Background(), root, "", []*pkgWork{w}, reports, 100, nil, until, &built); err != nil {
		t.Fatal(err)
	}
	r := reports[ts["Pump"]]
	if want := len(w.cases) - 1; r.Kept != want || len(r.Dropped) != 1 || !strings.Contains(r.Dropped[0], "crashes when run sequentially") {
		t.Errorf("%d kept, want %d; dropped %q, want the crasher only", r.Kept, want, r.Dropped)
	}
}

// A base commit where the cases alone do not build (a method the change
// added) is a note with the compiler's line, not the end of gen.
func TestOnBaseAloneDoesNotBuild(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	root, base := headAndBase(t)
	w := &pkgWork{pkg: pkg, gen: g, dir: root, cases: g.Generate(ts["Pump"], 4)}
	reports := map[*Target]*TypeReport{ts["Pump"]: {}}
	oldGoTest, oldEach := goTest, goEach
	t.Cleanup(func() { goTest, goEach = oldGoTest, oldEach })
	goTest = func(_ context.Context, _, _ string, _ int, _, names, _ []string, _ *time.Duration) (map[string]string, map[string][]byte, string, error) {
		outs := map[string][]byte{pkg.PkgPath + "." + names[0]: []byte("panic: boom\n")}
		return map[string]string{}, outs, "", nil
	}
	goEach = func(_ context.Context, dir, _ string, _ []string, runs []caseRun, _ *time.Duration) (map[string]string, map[string][]byte, error) {
		if dir == base {
			return nil, nil, errors.New("building the generated tests of ./x: exit status 1\n# example.com/x\n./interleave_gen_test.go:12:5: p.Drain undefined")
		}
		st := map[string]string{}
		for _, r := range runs {
			st[r.Key] = "fail"
		}
		return st, map[string][]byte{}, nil
	}
	var built time.Duration
	notes, err := feedback(context.Background(), root, base, []*pkgWork{w}, reports, 100, nil, time.Time{}, &built)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "did not run on the base commit: ./interleave_gen_test.go:12:5: p.Drain undefined") {
		t.Errorf("notes %q, want the base's compile error", notes)
	}
}

// TestFeedbackBatches: the sequential check runs a round's cases
// seqBatch a go test process (each count of a case's goroutines writes
// every goroutine's stack, those of the tests waiting in t.Parallel too:
// the corpus's 378 cases in one process took four times the CPU of six),
// one process after another, each with -timeout what is left; a process
// that could not end by the sequential runs' end is not started, and its
// cases are dropped as undecided for the budget, not run each alone.
// Each process takes 10 s of the fake clock.
func TestFeedbackBatches(t *testing.T) {
	pkg, ts := corpusTargets(t)
	g := NewGenerator(pkg.PkgPath, pkg.Name, 1)
	root := t.TempDir()
	w := &pkgWork{pkg: pkg, gen: g, dir: root, cases: g.Generate(ts["Hits"], 2*seqBatch+10)}
	reports := map[*Target]*TypeReport{ts["Hits"]: {}}
	oldGoTest, oldEach, oldClock := goTest, goEach, clock
	t.Cleanup(func() { goTest, goEach, clock = oldGoTest, oldEach, oldClock })
	now := time.Unix(1000, 0)
	// Two processes end by then; a third would start 20 s in, and a
	// round takes at least sequentialTimeout+5s.
	until := now.Add(20*time.Second + sequentialTimeout)
	clock = func() time.Time { return now }
	var sizes []int
	var timeouts []string
	goTest = func(_ context.Context, _, timeout string, _ int, _, names, _ []string, _ *time.Duration) (map[string]string, map[string][]byte, string, error) {
		sizes, timeouts = append(sizes, len(names)), append(timeouts, timeout)
		now = now.Add(10 * time.Second)
		st := map[string]string{}
		for _, n := range names {
			st[pkg.PkgPath+"."+n] = "pass"
		}
		return st, map[string][]byte{}, "", nil
	}
	goEach = func(context.Context, string, string, []string, []caseRun, *time.Duration) (map[string]string, map[string][]byte, error) {
		t.Error("the cases of the process not started were run each alone")
		return map[string]string{}, map[string][]byte{}, nil
	}
	var built time.Duration
	if _, err := feedback(context.Background(), root, "", []*pkgWork{w}, reports, len(w.cases), nil, until, &built); err != nil {
		t.Fatal(err)
	}
	if want := []int{seqBatch, seqBatch}; !slices.Equal(sizes, want) {
		t.Errorf("go test processes of %v cases, want %v", sizes, want)
	}
	if want := []string{"30s", "20s"}; !slices.Equal(timeouts, want) {
		t.Errorf("go test timeouts %v, want %v", timeouts, want)
	}
	r := reports[ts["Hits"]]
	undecided := 0
	for _, d := range r.Dropped {
		if strings.Contains(d, "the budget of the sequential runs ran out") {
			undecided++
		}
	}
	if r.Kept != 2*seqBatch || undecided != len(w.cases)-2*seqBatch || len(r.Dropped) != undecided {
		t.Errorf("%d kept, dropped %q; want %d kept and %d undecided for the budget", r.Kept, r.Dropped, 2*seqBatch, len(w.cases)-2*seqBatch)
	}
}
