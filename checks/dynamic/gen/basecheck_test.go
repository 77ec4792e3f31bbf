package gen

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestGenBaseVerdicts: a generated finding whose test fails the same way on
// the base commit (Latch's, whose file the change did not touch) is told
// apart from the change's (Gate's), and one whose test does not compile on
// the base (Meter's Stop took a parameter) gets no verdict, whichever
// constructor builds it; one whose test the base compiles by another
// constructor (Watcher's) is judged so. The schedules bound the search,
// not the clock; every finding replays on the head.
func TestGenBaseVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches three generated packages")
	}
	ctx := context.Background()
	head, base := copyHeadBase(t, "testdata/basecheck")
	res, err := Run(ctx, Options{
		Dir: head, Patterns: []string{"./..."}, PerType: 4, Seed: 3, Budget: 10 * time.Minute, Schedules: 30,
		SchedulesDir: filepath.Join(head, ".interleave", "schedules"), BaseDir: base,
	})
	if err != nil {
		t.Fatal(err)
	}
	byType := map[string][]checks.Finding{}
	for _, f := range res.Findings {
		typ, _, _ := strings.Cut(f.Message, " ")
		byType[typ] = append(byType[typ], f)
	}
	for _, f := range res.OnBase {
		typ, _, _ := strings.Cut(f.Message, " ")
		byType["base:"+typ] = append(byType["base:"+typ], f)
	}
	t.Logf("types: %+v\nnotes: %v", res.Types, res.Notes)
	for k, fs := range byType {
		for _, f := range fs {
			t.Logf("%s: %s %s: %s", k, f.Test, f.Kind, f.Message)
		}
	}
	want := []struct {
		key, says string
	}{
		{"base:tally.Latch", "(fails on the base commit too: "},
		{"tally.Gate", "(not on the base commit: "},
		{"meter.Meter", "(no base verdict: the generated test does not compile on the base commit: "},
		// Some of Watcher's tests are built by constructors the base
		// lacks (seed 3: the finding's too): the finding's test is judged
		// alone there, built by New.
		{"base:watch.Watcher", "(its value built by another constructor: the base commit lacks the one the test drew)"},
	}
	// Each finding replays in a fresh process on the head, as the printed
	// line does; ReplayMany builds each package (and carried file) once.
	var scheds []*rt.Schedule
	var replayed []string
	for _, w := range want {
		fs := byType[w.key]
		if len(fs) == 0 {
			t.Errorf("no finding %s", w.key)
			continue
		}
		f := fs[0]
		if !strings.Contains(f.Message, w.says) {
			t.Errorf("%s: %s, want it to say %q", w.key, f.Message, w.says)
		}
		s, err := explore.ReadSchedule(filepath.Join(head, f.Schedule))
		if err != nil {
			t.Errorf("replay of %s: %v", f.Test, err)
			continue
		}
		scheds, replayed = append(scheds, s), append(replayed, f.Test+" ("+w.key+")")
	}
	rrs, errs := explore.ReplayMany(ctx, scheds, explore.ReplayOptions{Dir: head})
	for i, what := range replayed {
		switch {
		case errs[i] != nil:
			t.Errorf("replay of %s: %v", what, errs[i])
		case rrs[i].Outcome != explore.Reproduced:
			t.Errorf("replay of %s: %s, diverged %q", what, rrs[i].Outcome, rrs[i].Diverged)
		}
	}
	if n := len(byType["tally.Latch"]); n > 0 {
		t.Errorf("%d finding(s) of Latch, older than the change, reported as its own", n)
	}
}

// TestBaseSays: a finding whose calls pass sequentially on the base says
// so and no "no base verdict" beside it; the schedule's verdicts are told
// otherwise as before.
func TestBaseSays(t *testing.T) {
	rare := baseVerdict{none: true, how: "too rare to compare in the time left"}
	for _, c := range []struct {
		v                baseVerdict
		checked, differs bool
		want             string
	}{
		{rare, true, true, " (its calls fail when run sequentially on this commit and pass on the base commit)"},
		{rare, true, false, " (no base verdict: too rare to compare in the time left)"},
		{baseVerdict{onBase: true, how: "its schedule fails the same way"}, true, true, " (its calls fail when run sequentially on this commit and pass on the base commit) (fails on the base commit too: its schedule fails the same way)"},
		{baseVerdict{how: "neither its schedule nor 9 schedules"}, true, false, " (not on the base commit: neither its schedule nor 9 schedules)"},
		{rare, false, false, ""},
	} {
		if got := baseSays(c.v, c.checked, c.differs); got != c.want {
			t.Errorf("baseSays(%+v, %v, %v) = %q, want %q", c.v, c.checked, c.differs, got, c.want)
		}
	}
}

// TestOtherBuilds: a case's other builds build its values by each of its
// type's other ways (a constructor or the zero value), derived as the
// case's are and, with two instances, both.
func TestOtherBuilds(t *testing.T) {
	several, derived, two := 0, 0, 0
	for _, dir := range []string{corpusDir, "testdata/basecheck/head/watch"} {
		pkgs, _, err := load(context.Background(), dir, []string{"."})
		if err != nil {
			t.Fatal(err)
		}
		g := NewGenerator(pkgs[0].PkgPath, pkgs[0].Name, 1)
		for _, tg := range Targets(pkgs) {
			ways := len(tg.Ctors) + btoi(tg.Zero)
			for _, c := range g.Generate(tg, 8) {
				alts := g.OtherBuilds(c)
				if len(alts) != ways-1 {
					t.Errorf("%s: %d other builds of %d ways: %q", c.Name, len(alts), ways, alts)
				}
				if ways > 1 {
					several++
				}
				seen := map[string]bool{strings.Join(c.Build, "\n"): true}
				for _, b := range alts {
					key := strings.Join(b, "\n")
					if seen[key] {
						t.Errorf("%s: build %q repeated", c.Name, key)
					}
					seen[key] = true
					if sameWay(b, c.Build) {
						t.Errorf("%s: build %q calls what the case's %q does", c.Name, key, c.Build)
					}
					if c.Derived != "" && !strings.Contains(key, "v := v0."+c.Derived+"(") {
						t.Errorf("%s: build %q does not derive v by %s", c.Name, key, c.Derived)
					}
					if c.Two && !strings.Contains(key, "\nw") {
						t.Errorf("%s: build %q does not build w", c.Name, key)
					}
				}
				if c.Derived != "" {
					derived++
				}
				if c.Two {
					two++
				}
			}
		}
	}
	if several == 0 || derived == 0 || two == 0 {
		t.Errorf("cases of types with several ways %d, derived %d, with two instances %d: want some of each", several, derived, two)
	}
}
