package prjob

import (
	"fmt"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// lateJob runs, on a counted clock, a pr job whose stages find failures
// late: the dynamic search spends the budget but what it keeps for the
// base commit and gen, then the base stage replays baseFails failures
// (a build of 30s first, each replay replayTook) within its share, and
// gen's search runs to the job's end less genKeep, then replays genFails
// findings (each replayTook) within what is left, as checkBase and
// genTests plan them (BaseOptions.Left, gen.Options.Left,
// explore.ReplayPlan). It returns the ledger and how many replays of
// each stage ran.
func lateJob(t *testing.T, dynKeep, genKeep time.Duration, baseFails, genFails int, replayTook time.Duration) (l *ledger, baseRan, genRan int) {
	t.Helper()
	clock := &fakeClock{t: time.Unix(0, 0)}
	total, genShare := 2*time.Minute, 30*time.Second
	l = newLedger(total)
	l.now = clock.now
	stage := l.watch(nil)
	l.charge("dynamic", func() {
		clock.build(stage, "building the test binary of m/p", 100*time.Second)
		clock.pass(total - genShare - dynKeep)
	})
	left := l.left()
	share := baseStageBudget(left, genShare)
	l.charge("base", func() {
		clock.build(stage, "instrumenting m/p", 30*time.Second)
		plan := &explore.ReplayPlan{Left: l.shareLeft(left, share), Now: l.clock()}
		for range baseFails {
			if plan.Fits(time.Second) {
				clock.pass(replayTook)
				plan.Done()
				baseRan++
			}
		}
	})
	l.charge("gen", func() {
		clock.build(stage, "copying the module to add the generated tests", 5*time.Second)
		clock.pass(max(l.leftNow()-genKeep, 0)) // its sequential runs and search
		plan := &explore.ReplayPlan{Left: l.leftFunc(), Now: l.clock()}
		for range genFails {
			if plan.Fits(time.Second) {
				clock.pass(replayTook)
				plan.Done()
				genRan++
			}
		}
	})
	return l, baseRan, genRan
}

// TestOneClockLateFailures: a job whose base and gen stages both find
// more failures than their time left can replay stays inside -budget
// (counted, not timed): the base stage's replays end in its share and
// leave gen its own, gen's replays end at the job's end. Fails when the
// ledger does not count the stage running now (leftNow as left): every
// replay then fits, the base stage takes 8s of its 6s and the job 2m2s.
func TestOneClockLateFailures(t *testing.T) {
	l, baseRan, genRan := lateJob(t, 6*time.Second, 4*time.Second, 4, 3, 2*time.Second)
	if got := l.afterBuild(); got > l.total {
		t.Errorf("the stages after their builds took %v of -budget %v: %s", got, l.total, l.line())
	}
	if baseRan != 3 || genRan != 2 {
		t.Errorf("replays run: base %d, gen %d; want 3 and 2 (the others find no time left)", baseRan, genRan)
	}
	if base := l.parts[1]; base.d > 6*time.Second {
		t.Errorf("the base stage took %v of its 6s share", base.d)
	}
}

// TestOneClockNothingLost: with time enough every failure of the base
// and gen stages is replayed, and the job still ends inside -budget.
func TestOneClockNothingLost(t *testing.T) {
	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			l, baseRan, genRan := lateJob(t, 20*time.Second, 10*time.Second, n, n, 2*time.Second)
			if baseRan != n || genRan != n {
				t.Errorf("replays run: base %d, gen %d of %d each; want all", baseRan, genRan, n)
			}
			if got := l.afterBuild(); got > l.total {
				t.Errorf("the stages after their builds took %v of -budget %v: %s", got, l.total, l.line())
			}
		})
	}
}

// TestLeftNowCountsTheRunningStage: what is left now counts the stage
// being charged, its finished builds excluded.
func TestLeftNowCountsTheRunningStage(t *testing.T) {
	clock := &fakeClock{t: time.Unix(0, 0)}
	l := newLedger(time.Minute)
	l.now = clock.now
	stage := l.watch(nil)
	l.charge("dynamic", func() {
		clock.pass(10 * time.Second)
		if got := l.leftNow(); got != 50*time.Second {
			t.Errorf("left now %v, want 50s", got)
		}
		clock.build(stage, "building the test binary of m/p", 20*time.Second)
		if got := l.leftNow(); got != 50*time.Second {
			t.Errorf("left now after a 20s build %v, want 50s (builds are outside)", got)
		}
		clock.pass(time.Minute)
		if got := l.leftNow(); got != 0 {
			t.Errorf("left now past the end %v, want 0", got)
		}
	})
	if got := l.leftNow(); got != 0 || l.left() != 0 {
		t.Errorf("after the stage: left now %v, left %v; want 0", got, l.left())
	}
	var none *ledger
	if none.leftFunc() != nil || none.shareLeft(time.Second, time.Second) != nil || none.clock() != nil {
		t.Error("a nil ledger bounds its stages")
	}
}
