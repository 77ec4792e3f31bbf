package explore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// schedulesLeft gives rt the rest of the bound, and no more once it is
// reached; without a bound, rt's 0 (until the deadline).
func TestSchedulesLeft(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		bound, done, n int
		more           bool
	}{
		{0, 0, 0, true}, {0, 1000, 0, true},
		{5, 0, 5, true}, {5, 3, 2, true}, {5, 5, 0, false}, {5, 7, -2, false},
	} {
		if n, more := schedulesLeft(c.bound, c.done); n != c.n || more != c.more {
			t.Errorf("schedulesLeft(%d, %d) = %d, %v; want %d, %v", c.bound, c.done, n, more, c.n, c.more)
		}
	}
	o := Options{Budget: time.Second, Schedules: -1}
	if err := normalize(&o); err == nil {
		t.Error("a negative Schedules was accepted")
	}
}

// TestSchedulesBound: with Options.Schedules, each worker runs that many
// schedules of each test and the search ends there, long before an ample
// budget; the unperturbed schedule comes on top.
func TestSchedulesBound(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds an instrumented kernel; skipped with -short")
	}
	dir, build := sharedBuild(t, kernelsDir)
	const bound, workers = 4, 2
	budget := 5 * time.Minute
	res, err := Run(context.Background(), Options{
		Dir: dir, Patterns: []string{"./locks"},
		Tests: []TestRef{
			{Package: "kernels/locks", Name: "TestLostUpdate"},
			{Package: "kernels/locks", Name: "TestCheckThenActMap"},
		},
		Budget: budget, Seed: 1, Workers: workers, Schedules: bound, SchedulesDir: t.TempDir(), Build: build,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stats.Tests) != 2 {
		t.Fatalf("%d tests searched, want 2", len(res.Stats.Tests))
	}
	for _, ts := range res.Stats.Tests {
		t.Logf("%s: %d schedules, %d failing, unperturbed %q", ts.Test, ts.Schedules, ts.Failures, ts.Plain)
		if want := 1 + workers*bound; ts.Schedules != want {
			t.Errorf("%s: %d schedules, want %d (the unperturbed one and %d per worker)", ts.Test, ts.Schedules, want, bound)
		}
	}
	if res.Stats.Elapsed >= budget/2 {
		t.Errorf("the search took %v of its %v budget, want it to end at the bound", res.Stats.Elapsed, budget)
	}
}

// TestParseScheduleTags: a schedule file keeps reading without tags
// (versions 1 and 2), reads its tags (version 3), replays with the
// clock's step per read it was recorded with (a nanosecond before version
// 6, its nowTick from 6 on), and one newer than this interleave, or a
// version 6 without its step, is refused with a clear message.
func TestParseScheduleTags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		json, tags, err string
		tick            time.Duration
	}{
		{json: `{"version":1,"package":"p","test":"TestA","decisions":[]}`, tick: time.Nanosecond},
		{json: `{"version":2,"package":"p","test":"TestA","decisions":[],"files":[{"name":"x_test.go","source":"package p"}]}`, tick: time.Nanosecond},
		{json: `{"version":3,"package":"p","test":"TestA","decisions":[],"tags":["integration","slow"]}`, tags: "integration,slow", tick: time.Nanosecond},
		{json: `{"version":4,"package":"p","test":"TestA","decisions":[],"keepEarly":true}`, tick: time.Nanosecond},
		{json: `{"version":5,"package":"p","test":"TestA","decisions":[],"prior":[{"test":"TestA","seed":1,"decisions":[]}]}`, tick: time.Nanosecond},
		{json: `{"version":6,"package":"p","test":"TestA","decisions":[],"nowTick":20}`, tick: 20},
		{json: `{"version":6,"package":"p","test":"TestA","decisions":[]}`, err: "version 6 without a positive nowTick"},
		{json: `{"version":6,"package":"p","test":"TestA","decisions":[],"nowTick":-3}`, err: "version 6 without a positive nowTick"},
		{json: `{"version":7,"package":"p","test":"TestA","decisions":[],"nowTick":20,"run":"TestA/sub"}`, tick: 20},
		{json: `{"version":7,"package":"p","test":"TestA","decisions":[],"nowTick":20,"run":"TestA/(sub"}`, err: `bad run pattern: element 1 of "TestA/(sub"`},
		{json: `{"version":8,"package":"p","test":"TestA","decisions":[],"nowTick":20,"skip":"TestA/sub"}`, tick: 20},
		{json: `{"version":8,"package":"p","test":"TestA","decisions":[],"nowTick":20,"skip":"TestA/[sub"}`, err: `bad skip pattern: element 1 of "TestA/[sub"`},
		{json: `{"version":9,"package":"p","test":"TestA","decisions":[],"nowTick":20,"priorStrategy":"pos","prior":[{"test":"TestA","seed":1,"digest":"5","steps":3}]}`, tick: 20},
		{json: `{"version":9,"package":"p","test":"TestA","decisions":[],"nowTick":20,"prior":[{"test":"TestA","seed":1,"digest":"5","steps":3}]}`, err: "earlier run 1 is carried by its seed, but the schedule names no strategy"},
		{json: `{"version":10,"package":"p","test":"TestA","decisions":[{"g":0,"op":"atomic","solo":true}],"nowTick":20}`, tick: 20},
		{json: `{"version":11,"package":"p","test":"TestA","decisions":[],"nowTick":20,"stretch":true}`, tick: 20},
		{json: `{"version":13,"package":"p","test":"TestA","decisions":[],"nowTick":20,"bubbleEnd":true}`, tick: 20},
		{json: `{"version":14,"package":"p","test":"TestA","decisions":[{"g":0,"site":"x.go:3","op":"time.Now","nowOutside":true}],"nowTick":20}`, tick: 20},
		{json: `{"version":15,"package":"p","test":"TestA","decisions":[],"nowTick":20}`, err: "has schedule version 15; this interleave reads versions up to 14"},
	} {
		s, err := parseSchedule([]byte(c.json), "s.json")
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.json, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.json, err)
			continue
		}
		if got := strings.Join(s.Tags, ","); got != c.tags {
			t.Errorf("%s: tags %q, want %q", c.json, got, c.tags)
		}
		if s.NowTick != c.tick {
			t.Errorf("%s: nowTick %v, want %v", c.json, s.NowTick, c.tick)
		}
	}
}

// A schedule file and a token leave out the decisions' call paths (the
// story's; a replay does not read them), and the schedule written keeps
// its own.
func TestScheduleWithoutPaths(t *testing.T) {
	t.Parallel()
	s := &rt.Schedule{Version: rt.ScheduleVersion, Package: "k", Test: "TestFast000", Strategy: "random", Seed: 3,
		Decisions: []rt.Decision{{G: 0, Op: "start"}, {G: 1, Op: "Mutex.Lock", Site: "k.go:14", Path: "k.go:17"}},
		Original:  []rt.Decision{{G: 1, Op: "Mutex.Lock", Site: "k.go:14", Path: "k.go:17"}}}
	path := filepath.Join(t.TempDir(), "s.json")
	if err := WriteSchedule(path, s); err != nil {
		t.Fatal(err)
	}
	tok, err := EncodeToken(s)
	if err != nil {
		t.Fatal(err)
	}
	read, err := ReadSchedule(path)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := DecodeToken(tok)
	if err != nil {
		t.Fatal(err)
	}
	for _, ds := range [][]rt.Decision{read.Decisions, read.Original, decoded.Decisions} {
		if len(ds) == 0 || ds[len(ds)-1].Path != "" || ds[len(ds)-1].Site != "k.go:14" {
			t.Errorf("decisions %+v, want the lock at k.go:14 without its path", ds)
		}
	}
	if s.Decisions[1].Path != "k.go:17" || s.Original[0].Path != "k.go:17" {
		t.Error("writing the schedule changed its decisions")
	}
}

// A schedule with a solo run, in its decisions or an earlier run's, is
// written (file and token) as version ScheduleVersionSolo, one recorded
// with a stretched clock as ScheduleVersionStretch (Stretch kept), one
// whose solo run a target cut short as ScheduleVersionSoloRun (SoloRun
// kept), one whose synctest bubble's end waited as
// ScheduleVersionBubbleEnd (BubbleEnd kept), one with a read of the clock
// made a scheduling point as its goroutine was back from outside control
// as ScheduleVersionNowOutside, which an older interleave refuses rather
// than replaying it wrong; one without stays as it was.
func TestScheduleSoloStretchVersion(t *testing.T) {
	t.Parallel()
	base := rt.Schedule{Version: rt.ScheduleVersionTick, NowTick: 20, Package: "k", Test: "TestA", Strategy: "random", Seed: 3,
		Decisions: []rt.Decision{{G: 0, Op: "start"}, {G: 0, Op: "atomic", Site: "k.go:9"}}}
	withPrior := base
	withPrior.Prior = []rt.Prior{{Test: "TestA", Seed: 2, Decisions: []rt.Decision{{G: 0, Op: "atomic", Solo: true}}}}
	withSolo := base
	withSolo.Decisions = []rt.Decision{{G: 0, Op: "start"}, {G: 0, Op: "atomic", Site: "k.go:9", Solo: true}}
	stretched := withSolo
	stretched.Stretch = true
	cut := base
	cut.Decisions = []rt.Decision{{G: 0, Op: "start"}, {G: 0, Op: "atomic", Site: "k.go:9", Solo: true, SoloRun: 40}}
	bubble := base
	bubble.BubbleEnd = true
	outside := base
	outside.Decisions = []rt.Decision{{G: 0, Op: "start"}, {G: 0, Op: "time.Now", Site: "k.go:9", NowOutside: true}}
	for _, c := range []struct {
		name string
		s    rt.Schedule
		want int
	}{{"none", base, rt.ScheduleVersionTick}, {"decisions", withSolo, rt.ScheduleVersionSolo}, {"prior", withPrior, rt.ScheduleVersionSolo}, {"stretched", stretched, rt.ScheduleVersionStretch}, {"cut", cut, rt.ScheduleVersionSoloRun}, {"bubble end", bubble, rt.ScheduleVersionBubbleEnd}, {"read back from outside", outside, rt.ScheduleVersionNowOutside}} {
		path := filepath.Join(t.TempDir(), "s.json")
		if err := WriteSchedule(path, &c.s); err != nil {
			t.Fatal(err)
		}
		read, err := ReadSchedule(path)
		if err != nil {
			t.Fatal(err)
		}
		tok, err := EncodeToken(&c.s)
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := DecodeToken(tok)
		if err != nil {
			t.Fatal(err)
		}
		if read.Version != c.want || decoded.Version != c.want {
			t.Errorf("%s: file version %d, token version %d, want %d", c.name, read.Version, decoded.Version, c.want)
		}
		if last := len(c.s.Decisions) - 1; read.Decisions[last].SoloRun != c.s.Decisions[last].SoloRun || decoded.Decisions[last].SoloRun != c.s.Decisions[last].SoloRun {
			t.Errorf("%s: SoloRun not kept in the file or token", c.name)
		}
		if read.BubbleEnd != c.s.BubbleEnd || decoded.BubbleEnd != c.s.BubbleEnd {
			t.Errorf("%s: file bubble end %v, token bubble end %v, want %v", c.name, read.BubbleEnd, decoded.BubbleEnd, c.s.BubbleEnd)
		}
		if read.Stretch != c.s.Stretch || decoded.Stretch != c.s.Stretch {
			t.Errorf("%s: file stretch %v, token stretch %v, want %v", c.name, read.Stretch, decoded.Stretch, c.s.Stretch)
		}
		if last := len(c.s.Decisions) - 1; read.Decisions[last].NowOutside != c.s.Decisions[last].NowOutside || decoded.Decisions[last].NowOutside != c.s.Decisions[last].NowOutside {
			t.Errorf("%s: NowOutside not kept in the file or token", c.name)
		}
	}
}

// A failure's schedule says it was stretched (its bubble's end waited)
// when its run was, or one of the earlier runs its replay runs first; not
// for earlier runs it leaves out. A replay after earlier runs says so too.
func TestFailureStretchedAny(t *testing.T) {
	t.Parallel()
	prior := []rt.Result{{Index: 0, Stretched: true, BubbleEnd: true}, {Index: 1}}
	for _, c := range []struct {
		name string
		f    failure
		want bool
	}{
		{"none", failure{prior: prior}, false},
		{"its own", failure{stretched: true, bubbleEnd: true}, true},
		{"an earlier run replayed", failure{prior: prior, afterPrior: 2}, true},
		{"an earlier run left out", failure{prior: prior, afterPrior: 1}, false},
	} {
		if got := c.f.stretchedAny(); got != c.want {
			t.Errorf("%s: stretchedAny %v, want %v", c.name, got, c.want)
		}
		if got := c.f.bubbleEndAny(); got != c.want {
			t.Errorf("%s: bubbleEndAny %v, want %v", c.name, got, c.want)
		}
	}
	// A replay after the last n earlier schedules carries theirs, though
	// f's own run has neither mark (it failed inside its bubble).
	f := failure{prior: prior}
	for n, want := range []bool{false, false, true} {
		var sched rt.Schedule
		f.withPriors(&sched, "TestA", n)
		if len(sched.Prior) != n || sched.Stretch != want || sched.BubbleEnd != want {
			t.Errorf("after %d earlier: %d priors, stretch %v, bubble end %v, want %d, %v", n, len(sched.Prior), sched.Stretch, sched.BubbleEnd, n, want)
		}
	}
}
