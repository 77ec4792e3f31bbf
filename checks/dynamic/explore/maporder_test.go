package explore

import (
	"context"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
)

// TestMapOrderReplay: a table test whose cases are a map deadlocks in half
// of the orders its cases can run in (testdata/maporder); the finding
// replays on its schedule in every fresh process, because the replay
// ranges over the map in the order the schedule's seed fixes (the
// runtime's own order is drawn anew in each process: without the rewrite
// a replay leaves the schedule or passes in about half of the runs).
func TestMapOrderReplay(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, "../testdata/maporder", []string{"."}, 10)
	c.Want = testkit.Want{Kinds: map[string]checks.FailureKind{"TestCases": checks.Deadlock}}
	checkFindings(context.Background(), t, res, c)
	for _, f := range res.Findings {
		sched, err := ReadSchedule(f.Schedule)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := newReplayer(context.Background(), sched, f.Schedule, ReplayOptions{Dir: c.dir, Build: c.build})
		if err != nil {
			t.Fatal(err)
		}
		defer rep.close()
		for i := 0; i < 8; i++ {
			rr, err := rep.run(context.Background(), sched, f.Schedule)
			if err != nil {
				t.Fatal(err)
			}
			if rr.Outcome != Reproduced || rr.Diverged != "" {
				t.Fatalf("replay %d of %s: %s, diverged %q", i+1, f.Schedule, rr.Outcome, rr.Diverged)
			}
		}
	}
}
