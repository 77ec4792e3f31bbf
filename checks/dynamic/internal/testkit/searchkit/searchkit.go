// Package searchkit is testkit for the test packages outside explore
// (realsuitetest, robusttest): unlike testkit it may import explore.
package searchkit

import (
	"context"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// Replay returns testkit.CheckFindings's replay: explore.Replay of the
// finding's schedule in module dir with watchdog step, a fresh build and
// process each.
func Replay(ctx context.Context, dir string, step time.Duration) func(checks.Finding) (testkit.Replayed, error) {
	return func(f checks.Finding) (testkit.Replayed, error) {
		rr, err := explore.Replay(ctx, f.Schedule, explore.ReplayOptions{Dir: dir, StepTimeout: step})
		if err != nil {
			return testkit.Replayed{}, err
		}
		return testkit.Replayed{Reproduced: rr.Outcome == explore.Reproduced, Outcome: string(rr.Outcome), Finding: rr.Finding, Diverged: rr.Diverged}, nil
	}
}
