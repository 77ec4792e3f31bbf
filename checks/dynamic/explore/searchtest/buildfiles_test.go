package searchtest

import (
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit/searchkit"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
	"github.com/interleave-dev/interleave/internal/testctx"
)

// buildfilesDir is the nested module of issue 21.6 and 26.2: dependencies
// older than generics, test files that only some builds include.
const buildfilesDir = "../../testdata/buildfiles"

// TestOldDependencies (issue 21.6; from explore, whose binary then built
// nothing with -race): a module whose go.mod says go 1.16
// uses two dependencies older than generics, one whose go.mod says go 1.16
// and one whose go.mod has no go line (read as go 1.16, as
// golang.org/x/time v0.3.0's); their rewritten time operations compile,
// the search runs on their timers, finds the lost update and replays it.
func TestOldDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary; skipped with -short")
	}
	dir, err := filepath.Abs(filepath.Join(buildfilesDir, "usedeps"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testctx.New(t)
	// Instrumented and built once, for every search and the replays.
	b, err := explore.NewBuild(ctx, explore.BuildOptions{Dir: dir, Race: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// A search that ends before it meets the lost update, or before its
	// processes start a schedule, is retried with a longer budget: a
	// loaded machine runs fewer schedules and starts processes slower.
	var res *explore.Result
	for _, budget := range []time.Duration{3 * time.Second, 15 * time.Second, time.Minute} {
		res, err = explore.Run(ctx, explore.Options{Dir: dir, Budget: budget, Seed: 1, Race: true, SchedulesDir: t.TempDir(), Build: b})
		if errors.Is(err, explore.ErrNoScheduleInBudget) && budget < time.Minute {
			t.Logf("budget %v: %v", budget, err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if slices.ContainsFunc(res.Findings, func(f checks.Finding) bool { return f.Test == "TestCounter" }) {
			break
		}
	}
	for _, ts := range res.Stats.Tests {
		if ts.Schedules == 0 {
			t.Errorf("%s ran no schedule", ts.Test)
		}
	}
	testkit.CheckFindings(t, res.Findings, testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestCounter": checks.TestFailure, "TestTickets": ""},
		Sites: map[string]string{"TestCounter": "usedeps_test.go:15"},
		Msgs:  map[string][]string{"TestCounter": {"usedeps_test.go:31: count 1 after two adds"}},
	}, searchkit.ReplayEach(ctx, explore.ReplayOptions{Dir: dir, Build: b}))
}

// TestBuildFiles (issue 26.2): the driver, the rewrite and the plain go
// test runs use exactly the test files the build includes: with -race the
// `//go:build race` file and not the `!race` one, without it the other
// way round, and a file for a tag set in GOFLAGS. Each tagged file's test
// fails on every run, so plain go test must run it to label the finding
// as failing without interleave too. The external test file puts the
// driver in the external test package, which names the internal tests.
func TestBuildFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds instrumented and plain test binaries; skipped with -short")
	}
	dir, err := filepath.Abs(filepath.Join(buildfilesDir, "racetags"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		race    bool
		goflags string
		want    []string // the tests searched; all but TestExternal fail plainly
	}{
		{name: "race", race: true, want: []string{"TestExternal", "TestRaceOnly"}},
		{name: "norace", want: []string{"TestExternal", "TestNoRaceOnly"}},
		{name: "tag", goflags: "-tags=interleaveextra", want: []string{"TestExternal", "TestExtraOnly", "TestNoRaceOnly"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("GOFLAGS", c.goflags)
			ctx := testctx.New(t)
			// Plain go test must get to run each failing test: the search
			// is bounded by a count of schedules, with a budget ample for
			// it and for plain go test on a loaded machine.
			res, err := explore.Run(ctx, explore.Options{Dir: dir, Budget: 5 * time.Minute, Schedules: 10, Seed: 1, Race: c.race, SchedulesDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			var searched []string
			for _, ts := range res.Stats.Tests {
				searched = append(searched, ts.Test)
			}
			sort.Strings(searched)
			if !slices.Equal(searched, c.want) {
				t.Errorf("searched %q, want %q", searched, c.want)
			}
			// Every tagged test fails on every run: a finding each,
			// labelled as failing under plain go test too.
			var plain []string
			for _, f := range res.Findings {
				if f.Kind != checks.TestFailure {
					t.Errorf("%s: %s, want a test failure", f.Test, f.Kind)
				}
				if !f.PlainGo.Fails() {
					t.Errorf("%s: labelled %q, want plain go test failing too", f.Test, f.Labels())
				}
				plain = append(plain, f.Test)
			}
			sort.Strings(plain)
			if want := slices.DeleteFunc(slices.Clone(c.want), func(s string) bool { return s == "TestExternal" }); !slices.Equal(plain, want) {
				t.Errorf("failing without interleave too: %q, want %q (findings %v, notes %q)", plain, want, res.Findings, res.Notes)
			}
			// The replay instruments the package again, for the build
			// the schedule was made with (once for all the findings).
			var scheds []*rt.Schedule
			for _, f := range res.Findings {
				sched, err := explore.ReadSchedule(f.Schedule)
				if err != nil {
					t.Fatalf("%s: %v", f.Test, err)
				}
				scheds = append(scheds, sched)
			}
			results, errs := explore.ReplayMany(ctx, scheds, explore.ReplayOptions{Dir: dir})
			for i, f := range res.Findings {
				if errs[i] != nil {
					t.Errorf("%s: replay: %v", f.Test, errs[i])
				} else if results[i].Outcome != explore.Reproduced {
					t.Errorf("%s: replay %s, want %s", f.Test, results[i].Outcome, explore.Reproduced)
				}
			}
		})
	}
}

// TestBuildTagsReplay (issue 26): the search builds with Options.Tags, so
// a test only a tagged build has is searched; its schedule file records
// the tags, and the replay builds with them (GOFLAGS empty: nothing else
// sets the tag) and reproduces the failure. A schedule of an interleave
// that read no tags has none, and replays as before.
func TestBuildTagsReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds instrumented test binaries; skipped with -short")
	}
	t.Setenv("GOFLAGS", "")
	dir, err := filepath.Abs(filepath.Join(buildfilesDir, "racetags"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := testctx.New(t)
	// Bounded by a count of schedules, with an ample budget.
	res, err := explore.Run(ctx, explore.Options{Dir: dir, Run: "^TestTaggedLostUpdate$", Tags: []string{"interleavetagged"},
		Budget: 5 * time.Minute, Schedules: 200, Seed: 1, SchedulesDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 1 || res.Findings[0].Test != "TestTaggedLostUpdate" {
		t.Fatalf("findings %+v (notes %q), want the lost update of TestTaggedLostUpdate", res.Findings, res.Notes)
	}
	f := res.Findings[0]
	sched, err := explore.ReadSchedule(f.Schedule)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(sched.Tags, []string{"interleavetagged"}) || sched.Version < rt.ScheduleVersionTags {
		t.Errorf("schedule tags %q version %d, want [interleavetagged] version >= %d", sched.Tags, sched.Version, rt.ScheduleVersionTags)
	}
	rr, err := explore.Replay(ctx, f.Schedule, explore.ReplayOptions{Dir: dir})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if rr.Outcome != explore.Reproduced {
		t.Errorf("replay %s, want %s", rr.Outcome, explore.Reproduced)
	}
	// Without its tags the schedule names a test the build lacks.
	sched.Tags, sched.Version = nil, rt.ScheduleVersionFiles
	old := filepath.Join(t.TempDir(), "old.json")
	if err := explore.WriteSchedule(old, sched); err != nil {
		t.Fatal(err)
	}
	_, err = explore.Replay(ctx, old, explore.ReplayOptions{Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "tagged_test.go is not in the replay's build (no tags, from the schedule): its build constraints exclude it") {
		t.Errorf("a schedule without the tags: replay error %v, want its file named as excluded by build constraints", err)
	}
}
