package explore

import (
	"context"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestLeftRunningKeepsReplays: the plain go test runs that label a leak of
// goroutines still running (checkLeftRunning, right after its test's
// search) leave the replays of the failures found their time: with less
// left before the hard stop than those replays take, plain go test is not
// asked then (labelPlain asks after the replays, if time is left). The
// recall yardstick's tickerstopsignal (load 33): its three plain runs took
// 2.3 s of the 2.9 s kept for its replays, and the leak was dropped, "no
// time was left in the budget to replay its schedule alone". Durations are
// counted (an hour's margins), not raced. Fails without beforeReplays, and
// (the batched case) with the batches' plain runs bounded by beforeReplays
// alone.
func TestLeftRunningKeepsReplays(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name    string
		elapsed time.Duration // of the failing schedule
		batched bool          // searched in batches whose part has ended
		asked   bool
	}{
		{"its replays fit after the plain runs", time.Minute, false, true},
		{"its replays need the time left", 40 * time.Minute, false, false},
		{"the batches' part has ended", time.Minute, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, tg, _ := newFakeSearch(t, "TestLongLeak", fakeBudget, 1)
			tg.cost = 100 * time.Millisecond
			tg.stats = &TestStats{Test: tg.name}
			f := &failure{kind: checks.Leak, message: rt.LeakRunning + "4000 decisions later, the last 2000 fair: g1 running at select at k_test.go:21",
				site: "/src/k/k_test.go:21", elapsed: c.elapsed}
			k := tg.name + "|" + f.key()
			s.failures[k], s.owners[k], s.order = f, tg, []string{k}
			s.fresh.add(time.Minute)
			now := time.Now()
			s.deadline, s.hardStop = now.Add(time.Hour), now.Add(time.Hour+time.Minute)
			if want := s.hardStop.Add(-replayTries * (c.elapsed + time.Minute)); c.asked && !s.beforeReplays().Equal(want) {
				t.Errorf("plain runs until %v before the hard stop, want %v (its %d replays)", s.hardStop.Sub(s.beforeReplays()), s.hardStop.Sub(want), replayTries)
			}
			if c.batched {
				// The batches' part ended now; the tests searched
				// after them keep theirs (ratelimit's leaking tests
				// took 22 s here past a 15.5 s part).
				s.searchBatches(context.Background(), []*target{tg}, now)
			} else {
				s.checkLeftRunning(context.Background(), tg, s.deadline)
			}
			// The fake search has no module to build plain go test in:
			// asking records that error.
			if asked := tg.leftGo != nil; asked != c.asked {
				t.Errorf("plain go test asked: %v, want %v (replays need %v of the %v left)", asked, c.asked, s.replaysReserve(), time.Until(s.hardStop).Round(time.Minute))
			}
		})
	}
}

// TestLabelsBuildNothingPastTheBudget: plain go test for a finding's
// labels (plainForLabels) is not built once its part of the budget has
// ended: the label says the budget ran out. A finding reported unreplayed
// for want of time reaches it after the hard stop; a race build there
// took seconds past the budget. Fails with the build first.
func TestLabelsBuildNothingPastTheBudget(t *testing.T) {
	t.Parallel()
	s, tg, _ := newFakeSearch(t, "TestLongLeak", fakeBudget, 1)
	f := &failure{kind: checks.Leak, message: rt.LeakRunning + "4000 decisions later", site: "/src/k/k_test.go:21"}
	out := s.plainForLabels(context.Background(), tg, []*failure{f}, time.Now().Add(-time.Second))
	if out.err != errBudgetOut || len(s.plainBins) != 0 {
		t.Errorf("plain outcome %v, %d plain binaries built; want the budget ran out, none built", out.err, len(s.plainBins))
	}
}

// TestLeftRunningWaitsInsideItsPart: the check after the batches does not
// wait past the batches' part for the unperturbed run's plain go test
// still running beside the search (that run answers for the leak later,
// before the labels). ratelimit: three slow tests' plain runs, waited for
// here, took the 14 s after the batches' last schedule, and the tests
// searched next got 0 s each. Fails (after a minute) with the wait
// unbounded.
func TestLeftRunningWaitsInsideItsPart(t *testing.T) {
	t.Parallel()
	s, tg, _ := newFakeSearch(t, "TestLongLeak", fakeBudget, 1)
	tg.stats = &TestStats{Test: tg.name}
	f := &failure{kind: checks.Leak, message: rt.LeakRunning + "4000 decisions later", site: "/src/k/k_test.go:21"}
	k := tg.name + "|" + f.key()
	s.failures[k], s.owners[k], s.order = f, tg, []string{k}
	now := time.Now()
	s.deadline, s.hardStop = now.Add(time.Hour), now.Add(time.Hour+time.Minute)
	tg.plainCheck = make(chan struct{}) // still running
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.searchBatches(context.Background(), []*target{tg}, now)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the batches' check waited past their part for the unperturbed run's plain go test")
	}
	if tg.leftGo != nil {
		t.Errorf("plain go test asked for the leak after the batches' part: %+v", tg.leftGo)
	}
}
