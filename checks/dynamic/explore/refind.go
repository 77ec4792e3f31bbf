// A failure that did not replay alone, found again in fresh processes of its test alone.

package explore

import (
	"context"
	"fmt"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// A failure seen only in processes that ran other schedules before it (a
// batch's other tests, or its own earlier ones) may not replay alone:
// what those left is in it. pond's TestPoolWithQueueSizeOne failed on 2
// schedules of a batch process and their replays alone diverged, yet the
// test fails that way by itself on a quarter of its schedules. Before
// such a cause is given up (a note: "did not reproduce"), its test is
// searched alone, one schedule per fresh process, in what is left of the
// cause's part of the replays' time; a failure of the same key found so
// has nothing before it, and is told instead when it replays alone. A
// failure that replayed only after the schedules its process ran before
// it (AfterEarlier, labelled order-dependent) is searched for alone too,
// in fewer processes (refindAfterEarlier): pond's failed so on 24% of
// its schedules alone, and "after earlier runs" misled.

// refindBase is the index of the first schedule of a refind, past every
// worker's range (workerStride apart).
const refindBase = 1 << 40

// refindProcesses bounds the fresh processes one refind starts for a
// failure that did not replay, refindAfterEarlier for one that replayed
// after the schedules before it.
const (
	refindProcesses    = 64
	refindAfterEarlier = 8
)

// refindAlone runs t alone, one schedule per fresh process (at most
// procs), until one fails as f (key k: t's name and f's key) and replays
// alone, within the cause's part of the replays' time (replayUntil, else
// the budget's stopBy). It returns that failure and its finding, now the kept failure
// of k; or why not, for the note ("" when it did not try: f had nothing
// before it in its process, or the search has no end to keep to).
func (s *search) refindAlone(ctx context.Context, t *target, k string, f *failure, procs int) (*failure, checks.Finding, string) {
	end := s.replayUntil
	if stop := s.stopBy(); end.IsZero() || !stop.IsZero() && stop.Before(end) {
		end = stop
	}
	if f == nil || f.firstInProcess() || t.bin == "" || s.noReplayCheck || end.IsZero() {
		return nil, checks.Finding{}, ""
	}
	s.mu.Lock()
	cost, seen := time.Duration(0), s.firstRun[k]
	if t.stats != nil {
		cost = t.stats.Cost
	}
	s.mu.Unlock()
	key, ran, failed := f.key(), 0, 0
	for ; ran < procs && ctx.Err() == nil; ran++ {
		// Room for this process and the replays of what it finds.
		per := replayCost(cost, f.elapsed, s.fresh.recent())
		if time.Until(end) < time.Duration(1+replayTries)*per {
			break
		}
		// Its schedule starts while its replays still fit after it.
		last := end.Add(-time.Duration(replayTries) * per)
		hard := end.Add(childGrace)
		if !s.hardStop.IsZero() && hard.After(s.hardStop) {
			hard = s.hardStop
		}
		c := s.testChild(t, rt.Config{
			Strategy:  s.opts.Strategy,
			First:     refindBase + ran,
			Schedules: 1,
			Deadline:  last,
			Until:     end,
			MaxSteps:  s.searchBound(t),
		}, func(r rt.Result) { s.counted(t, r) })
		out, err := c.run(ctx, hard, fmt.Sprintf("%s-%s-refind%d", sanitize(t.pkg.ImportPath), t.name, ran))
		if err != nil {
			return nil, checks.Finding{}, "its test run alone could not be started again: " + firstLine(err.Error())
		}
		if !s.collect(t, out, refindBase+ran, s.opts.Strategy)[key] {
			continue
		}
		failed++
		s.mu.Lock()
		rf := s.firstRun[k]
		s.mu.Unlock()
		if rf == nil || rf == seen {
			continue
		}
		seen = rf
		fd, err := s.finding(ctx, rf, t, false)
		if err != nil {
			return nil, checks.Finding{}, "its schedule file could not be written: " + err.Error()
		}
		why, unchecked := s.replaysAlone(ctx, t, &fd, rf)
		if why == "" && !unchecked && fd.AfterEarlier == nil {
			s.mu.Lock()
			s.failures[k] = rf
			s.mu.Unlock()
			return rf, fd, ""
		}
		if why == whyStretchMade {
			return nil, checks.Finding{}, why
		}
	}
	if ran == 0 {
		return nil, checks.Finding{}, "no time was left to run its test alone in fresh processes"
	}
	what := "processes"
	if ran == 1 {
		what = "process"
	}
	return nil, checks.Finding{}, fmt.Sprintf("nor did any of %d fresh %s running it alone, one schedule each, fail that way and replay (%d failed so)", ran, what, failed)
}
