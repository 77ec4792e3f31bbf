package explore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// findingCheck is what checkFindings asserts of a search's findings.
type findingCheck struct {
	dir   string        // the module the search ran in
	step  time.Duration // ReplayOptions.StepTimeout
	build *Build        // ReplayOptions.Build (nil: instrument and build again)
	race  bool          // the build and the search use the race detector
	testkit.Want
}

// checkFindings checks the findings of res against c (testkit.CheckFindings)
// and replays every finding in a fresh process; the package is built once
// for all of them (or not at all: c.build).
func checkFindings(ctx context.Context, t *testing.T, res *Result, c findingCheck) {
	t.Helper()
	var rep *replayer
	defer func() {
		if rep != nil {
			rep.close()
		}
	}()
	testkit.CheckFindings(t, res.Findings, c.Want, func(f checks.Finding) (testkit.Replayed, error) {
		sched, err := ReadSchedule(f.Schedule)
		if err != nil {
			return testkit.Replayed{}, err
		}
		if rep == nil {
			if rep, err = newReplayer(ctx, sched, f.Schedule, ReplayOptions{Dir: c.dir, StepTimeout: c.step, Build: c.build}); err != nil {
				t.Fatalf("replay build: %v", err)
			}
		}
		rr, err := rep.run(ctx, sched, f.Schedule)
		if err != nil {
			return testkit.Replayed{}, err
		}
		// A replay counts when the earlier schedules it ran first did
		// what they did when recorded: else they left other state.
		diverged, earlierOff := rr.Diverged, rr.EarlierOff()
		if earlierOff != nil && diverged == "" {
			diverged = fmt.Sprintf("an earlier schedule run first (seed %d) %s", earlierOff.Seed, earlierOff.Off())
		}
		return testkit.Replayed{Reproduced: rr.Outcome == Reproduced && earlierOff == nil, Outcome: string(rr.Outcome), Finding: rr.Finding, Diverged: diverged}, nil
	})
}

// kernelsDir is the nested module of bug kernels; kerneltest searches all
// of them, the tests here a few.
const kernelsDir = "../testdata/kernels"

// sharedPatterns are the packages of a testdata module that several of
// this package's tests search, non-race: one Build of them serves all
// (sharedBuild).
var sharedPatterns = map[string][]string{
	kernelsDir:      {"./locks"},
	realsuiteDrvDir: {"./globalstate", "./toolsibling", "./plainbeside", "./rebootpool", "./rebootother", "./cwdfiles", "./tickerstop", "./sharedprovider", "./longprefix"},
}

var shared struct {
	sync.Mutex
	builds map[string]*Build
}

// sharedBuild returns the absolute directory of module rel and the Build
// of its sharedPatterns, made by the first test that asks; TestMain
// closes it.
func sharedBuild(t *testing.T, rel string) (string, *Build) {
	t.Helper()
	dir, err := filepath.Abs(rel)
	if err != nil {
		t.Fatal(err)
	}
	shared.Lock()
	defer shared.Unlock()
	if b := shared.builds[rel]; b != nil {
		return dir, b
	}
	b, err := NewBuild(context.Background(), BuildOptions{Dir: dir, Patterns: sharedPatterns[rel], Stage: func(e StageEvent) {
		if e.Done {
			t.Logf("stage %s: %v", e.Name, e.Took.Round(time.Millisecond))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if shared.builds == nil {
		shared.builds = map[string]*Build{}
	}
	shared.builds[rel] = b
	return dir, b
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, b := range shared.builds {
		b.Close()
	}
	if fakeBin != "" {
		os.RemoveAll(filepath.Dir(fakeBin))
	}
	os.Exit(code)
}
