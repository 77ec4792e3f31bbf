// After the search: one finding per cause, replayed alone in a fresh process, labelled, shrunk.

package explore

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// report turns the failures the search kept into the Result.
func (s *search) report(ctx context.Context) (*Result, error) {
	res := &Result{Seed: s.opts.Seed, Met: s.isMet()}
	endStage := func(string) {}
	if len(s.order) > 0 {
		endStage = s.stage(fmt.Sprintf("shrinking and telling %d failing %s", len(s.order), checks.Plural(len(s.order), "schedule")))
	}
	defer endStage("")
	began := time.Now()
	cands, candKeys, tools, err := s.candidates(ctx)
	if err != nil {
		return nil, err
	}
	s.tellAfter = time.Since(began)
	s.mu.Lock()
	s.keptAfter = s.callerKeep()
	s.mu.Unlock()
	var replayed []string // keys of res.Findings, in order
	res.Findings, replayed = s.replayCauses(ctx, cands, candKeys)
	// What plain go test does with each finding's test: a label, and for
	// a failure the tool caused in a sibling test, the check that keeps
	// it from being told as this test's own.
	res.Findings, replayed = s.labelPlain(ctx, res.Findings, replayed, tools)
	s.shrinkFindings(ctx, res.Findings, replayed)
	res.Findings = s.regroup(res.Findings, replayed)
	checks.Sort(res.Findings)
	s.mu.Lock()
	if s.reported == nil {
		s.reported = map[string]bool{}
	}
	for _, k := range s.order {
		s.reported[k] = true
	}
	s.mu.Unlock()
	s.finish(res)
	return res, nil
}

// candidates returns the findings to replay (cands, of the failures
// candKeys), and the failures noted as the tool's doing (tools).
func (s *search) candidates(ctx context.Context) (cands []checks.Finding, candKeys []string, tools []toolFailure, err error) {
	for _, k := range s.order {
		f, t := s.failures[k], s.owners[k]
		finding, err := s.finding(ctx, f, t, false)
		if err != nil {
			return nil, nil, nil, err
		}
		if s.toolsDoing(t, f) {
			// Every schedule fails, the one with no preemption at all
			// included, but plain go test does not fail this way: what
			// differs is the tool, not the interleaving. Never told as the
			// test's own. (When some schedules pass, it depends on the
			// interleaving: a finding, labelled "plain go test passes",
			// never "fails too".)
			if failed, _ := t.plainGo.failedRuns(); failed == len(t.plainGo.runs) && failed > 0 {
				// Plain go test fails it too, every run, another way:
				// the test fails without the tool, so the note must not
				// blame the tool; the failure under interleave is still
				// not told, as no plain run fails that way.
				s.note(fmt.Sprintf("%s: not reported: the unperturbed schedule under interleave fails (%s), and plain go test fails too, another way (%s): the test fails without interleave, but not as it does under it; to look: %s",
					t.name, firstLine(f.message), t.plainGo.howPlain(t.pkg.Dir), finding.Replay))
			} else {
				s.note(fmt.Sprintf("%s: not reported, most likely the tool's doing: the unperturbed schedule under interleave fails (%s) but %s; to look: %s",
					t.name, firstLine(f.message), t.plainGo.howPlain(t.pkg.Dir), finding.Replay))
			}
			tools = append(tools, toolFailureOf(t, f))
			continue
		}
		cands = append(cands, finding)
		candKeys = append(candKeys, k)
	}
	return cands, candKeys, tools, nil
}

// replayCauses returns one finding per cause (group.go) and the keys of
// their failures, in order: the members of a cause are tried in order
// until one replays alone, or one's replay finds no time left in the
// budget (reported all the same, labelled, when unreplayed allows); the
// rest are listed in it. The replays take what is left of the budget but
// the plain go test runs' part (postReserve of the tests with findings),
// each cause its fair part of that.
func (s *search) replayCauses(ctx context.Context, cands []checks.Finding, candKeys []string) (findings []checks.Finding, replayed []string) {
	groups := replayOrder(causes(cands), cands, s.opts.ReplayFirst)
	replayEnd := s.hardStop.Add(-s.labelReserve(candKeys))
	// The first replay of each cause, by its first member: the tries
	// after a cause's first wait for what the causes after it need.
	firsts := make([]time.Duration, len(groups))
	for gi, g := range groups {
		if len(g) > 0 {
			firsts[gi] = s.firstReplay(s.owners[candKeys[g[0]]], s.failures[candKeys[g[0]]])
		}
	}
	for gi, g := range groups {
		now := time.Now()
		if !s.hardStop.IsZero() {
			s.replayUntil = now.Add(fairShare(now, replayEnd, len(groups)-gi))
		}
		s.replayKeep = 0
		for _, d := range firsts[gi+1:] {
			s.replayKeep += d
		}
		s.untilFirst(g, candKeys)
		refound := false // the cause's test was searched alone (refindAlone, once a cause)
		for n, i := range g {
			f, t, finding := s.failures[candKeys[i]], s.owners[candKeys[i]], cands[i]
			why, unchecked := s.replaysAlone(ctx, t, &finding, f)
			switch after := f != nil && !f.firstInProcess() && !refound; {
			case why != "" && why != whyStretchMade && !unchecked && after:
				refound = true
				if rf, fd, whyNot := s.refindAlone(ctx, t, candKeys[i], f, refindProcesses); rf != nil {
					f, finding, why = rf, fd, ""
				} else if whyNot == whyStretchMade {
					why = whyNot // a fresh process's failure, the stretch's
				} else if whyNot != "" {
					why += "; " + whyNot
				}
			case why == "" && finding.AfterEarlier != nil && after:
				refound = true
				if rf, fd, _ := s.refindAlone(ctx, t, candKeys[i], f, refindAfterEarlier); rf != nil {
					f, finding = rf, fd
				}
			}
			if unchecked && why == whyNoTime {
				if fd, whyNot := s.unreplayed(ctx, candKeys[i], t, finding); whyNot == "" {
					f, finding, why, unchecked = s.failures[candKeys[i]], fd, "", false
				} else {
					why += "; " + whyNot
				}
			}
			if why == whyStretchMade {
				s.note(fmt.Sprintf("%s: not reported: it failed (%s) with seed %d on a clock the runtime stretched %v ahead in a run of %v (for loops that work until a time has passed), and %s: the stretch made it, not the code; to look: %s",
					t.name, firstLine(f.message), f.seed, f.stretchedBy.Round(time.Millisecond), f.elapsed.Round(time.Millisecond), why, finding.Replay))
				continue
			}
			if unchecked {
				s.note(fmt.Sprintf("%s: not reported: it failed (%s) with seed %d, but every finding must replay alone in a fresh process and %s; to look: %s",
					t.name, firstLine(f.message), f.seed, why, finding.Replay))
				continue
			} else if why != "" {
				outside := "something outside the schedule decides it"
				if len(f.prior) > 0 && !f.kept {
					outside = "something outside the schedule decides it (what the schedules its process ran before it left, or more)"
				}
				s.note(fmt.Sprintf("%s: not reported: it failed (%s) with seed %d, but its schedule run alone in a fresh process did not reproduce it on any of %d replays (the last: %s): %s, and a finding must replay with the line it prints; to look: %s",
					t.name, firstLine(f.message), f.seed, replayTries, why, outside, finding.Replay))
				continue
			}
			var others []checks.Finding
			for _, j := range g[n+1:] {
				others = append(others, cands[j])
			}
			finding.Frequency = s.frequency(t, candKeys[i])
			findings = append(findings, fold(finding, others))
			replayed = append(replayed, candKeys[i])
			break
		}
	}
	s.replayUntil, s.replayKeep = time.Time{}, 0
	return findings, replayed
}

// replayOrder puts the causes (groups of cands) with a member first
// picks before the others, each in its order.
func replayOrder(groups [][]int, cands []checks.Finding, first func(checks.Finding) bool) [][]int {
	if first == nil {
		return groups
	}
	picked := func(g []int) bool {
		return slices.ContainsFunc(g, func(i int) bool { return first(cands[i]) })
	}
	slices.SortStableFunc(groups, func(a, b []int) int {
		pa, pb := picked(a), picked(b)
		switch {
		case pa && !pb:
			return -1
		case pb && !pa:
			return 1
		}
		return 0
	})
	return groups
}

// unreplayed is the finding of failure key k of t (told: as candidates
// told it) whose replay found no time left in the budget: seen under control, it is still reported,
// with its schedule and replay line, labelled checks.NotReplayedNoTime
// (issue 21: a true failure is never dropped), when one of its failing
// schedules was the first its process ran (nothing an earlier schedule
// left is in it: the state a driver registered twice is, globalstate)
// and no watchdog ended it (a hang a loaded machine can cause). That
// schedule becomes the failure's. Else whyNot says why it is not
// reported (a note).
func (s *search) unreplayed(ctx context.Context, k string, t *target, told checks.Finding) (fd checks.Finding, whyNot string) {
	s.mu.Lock()
	f := s.failures[k]
	same := f.firstInProcess()
	if !same {
		f = s.firstRun[k]
	}
	switch {
	case f == nil:
		whyNot = "each of its failing schedules ran after others in its process, whose state may be what failed it"
	case f.isHang():
		whyNot = "a watchdog ended it, which a loaded machine can cause"
	default:
		s.failures[k] = f
	}
	s.mu.Unlock()
	if whyNot != "" {
		return fd, whyNot
	}
	// Told already when it is the failure kept (a long schedule's telling
	// takes seconds: the budget is over).
	fd = told
	if !same {
		var err error
		if fd, err = s.finding(ctx, f, t, false); err != nil {
			return fd, "its schedule file could not be written: " + err.Error()
		}
	}
	fd.NotReplayed = checks.NotReplayedNoTime
	return fd, ""
}

// shrinkFindings shrinks the findings, every one replayed alone (replayed
// are the keys of their failures), with the time left: shrinking keeps
// only what a fresh replay reproduces.
func (s *search) shrinkFindings(ctx context.Context, findings []checks.Finding, replayed []string) {
	if len(replayed) > 0 {
		s.startShrinking()
	}
	defer func() { s.shrinkShare = time.Time{} }()
	for i, k := range replayed {
		// Each its fair part of what is left, so that one finding's
		// replays (a second each on a real suite) cannot take it all.
		s.shrinkShare = time.Now().Add(time.Until(s.shrinkUntil) / time.Duration(len(replayed)-i))
		if s.noShrinkTime() {
			// Telling it again would change nothing: a long schedule's
			// telling took seconds past the budget (bigcache's leak of
			// 54,083 decisions, 5.2 s at load 20).
			break
		}
		f, t := s.failures[k], s.owners[k]
		if shrunk, err := s.finding(ctx, f, t, true); err == nil && shrunk.Schedule == findings[i].Schedule {
			findings[i].Interleaving, findings[i].ReplayToken = shrunk.Interleaving, shrunk.ReplayToken
			findings[i].EarlyTimers = shrunk.EarlyTimers // the shrunk schedule's jumps
		}
	}
}

// regroup groups fs (the failures of keys) again once shrunk: a window
// (group.go) is told by a shrunk interleaving, at most maxWindow
// preemptions, and a search's schedule seldom is one. httprc's
// TestControllerLookup and TestControllerRemove, each failing after a
// preemption at the select Lookup sends through (controller.go:89,
// called from :112), were two findings of 3 and 4 preemptions before
// shrinking. The failure Options.Until accepted stays its group's
// representative (untilFirst).
func (s *search) regroup(fs []checks.Finding, keys []string) []checks.Finding {
	if len(fs) != len(keys) {
		return fs
	}
	return foldCauses(fs, func(g []int) { s.untilFirst(g, keys) })
}

// noShrinkTime reports whether the time for shrinking (tellFinding's
// shrinkUntil, once set, else optionalBy) is over.
func (s *search) noShrinkTime() bool {
	end := s.shrinkUntil
	if end.IsZero() {
		end = s.optionalBy()
	}
	return !end.IsZero() && !time.Now().Before(end)
}

// finish adds the notes and the final stats to res, and tells Progress.
func (s *search) finish(res *Result) {
	s.mu.Lock()
	res.Notes = s.notes
	s.stats.Findings = len(res.Findings)
	s.stats.Current = ""
	res.Stats = s.snapshot()
	s.mu.Unlock()
	if s.opts.Progress != nil {
		s.opts.Progress(res.Stats)
	}
}
