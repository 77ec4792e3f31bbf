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
// the base (Meter's Stop took a parameter) gets no verdict. The schedules
// bound the search, not the clock; every finding replays on the head.
func TestGenBaseVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and searches three generated packages")
	}
	ctx := context.Background()
	tmp := t.TempDir()
	head, base := filepath.Join(tmp, "head"), filepath.Join(tmp, "base")
	for dir, from := range map[string]string{head: "testdata/basecheck/head", base: "testdata/basecheck/base"} {
		if err := copyTree(from, dir); err != nil {
			t.Fatal(err)
		}
	}
	res, err := Run(ctx, Options{
		Dir: head, Patterns: []string{"./..."}, PerType: 4, Seed: 1, Budget: 10 * time.Minute, Schedules: 30,
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
