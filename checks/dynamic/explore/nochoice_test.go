package explore

import (
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/internal/testctx"
)

// TestNoChoiceOneSchedule: a test whose unperturbed run had no choice
// (rt.Result.Choices 0: one goroutine throughout) gets that one schedule
// and one process of two more (a run after a run in one process may see
// what the first left), counted in the stats; tests whose first run is sequential but whose
// later schedules fork (by a map's order, by a random draw) are searched
// as before and their lost update is found and replayed. Fails without
// the count (TestSequential gets the 24 schedules of the others).
func TestNoChoiceOneSchedule(t *testing.T) {
	t.Parallel()
	c, res := searchCounted(t, "../testdata/nochoice", []string{"."}, 24)
	byName := map[string]TestStats{}
	for _, ts := range res.Stats.Tests {
		byName[ts.Test] = ts
	}
	if ts := byName["TestSequential"]; ts.Schedules != 1+noChoiceRuns || !ts.NoChoice {
		t.Errorf("TestSequential: %d schedules, no choice %v; want %d, true", ts.Schedules, ts.NoChoice, 1+noChoiceRuns)
	}
	for _, name := range []string{"TestMapFork", "TestRandFork"} {
		if ts := byName[name]; ts.NoChoice || ts.Schedules < 2 {
			t.Errorf("%s: %d schedules, no choice %v; want searched", name, ts.Schedules, ts.NoChoice)
		}
	}
	if res.Stats.NoChoice != 1 {
		t.Errorf("Stats.NoChoice = %d, want 1", res.Stats.NoChoice)
	}
	c.Want = testkit.Want{Kinds: map[string]checks.FailureKind{"TestMapFork": checks.TestFailure, "TestRandFork": checks.TestFailure}}
	checkFindings(testctx.New(t), t, res, c)
}
