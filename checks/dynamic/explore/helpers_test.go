package explore

import (
	"context"
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
		return testkit.Replayed{Reproduced: rr.Outcome == Reproduced, Outcome: string(rr.Outcome), Finding: rr.Finding, Diverged: rr.Diverged}, nil
	})
}

// kernelsDir is the nested module of bug kernels; kerneltest searches all
// of them, the tests here a few.
const kernelsDir = "../testdata/kernels"
