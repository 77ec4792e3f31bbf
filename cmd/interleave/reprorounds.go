// repro's search in rounds: on after a match that did not replay.

package main

import (
	"context"
	"slices"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// minRound is the least budget left for which repro searches on after a
// round whose match did not replay.
const minRound = 10 * time.Second

// roundSeed is how far each round's seed is from the last: beyond the
// schedules a round runs, so no schedule is run again.
const roundSeed = 1_000_000

// searchRounds runs the search of o, on one build, in rounds: a round
// ends at the first failure that is the log's (o.Until; isLog tells it
// without Until's counting), and when no
// fresh replay of its schedule reproduced it (the search drops it:
// something outside the schedule decides it too), the next round
// searches on with another seed for what is left of the budget. The
// result is the last round's, with the rounds' notes and counts.
func searchRounds(ctx context.Context, o explore.Options, isLog func(checks.Finding) bool, say func(string, ...any)) (*explore.Result, error) {
	build, err := explore.NewBuild(ctx, explore.BuildOptions{Dir: o.Dir, Patterns: o.Patterns, Race: o.Race, Tags: o.Tags, Stage: o.Stage})
	if err != nil {
		return nil, err
	}
	defer build.Close()
	o.Build = build
	budget := o.Budget
	var all *explore.Result
	for round := 1; ; round++ {
		res, err := explore.Run(ctx, o)
		if err != nil {
			return res, err
		}
		all = mergeRound(all, res, round)
		left := budget - all.Stats.Elapsed
		if !res.Met || matched(res, isLog) || left < minRound || ctx.Err() != nil {
			return all, nil
		}
		o.Seed += roundSeed
		o.Budget = left
		say("the log's failure was met, but no fresh replay of its schedule reproduced it (something outside the schedule decides it too): searching on for %v with seed %d", left.Round(time.Second), o.Seed)
	}
}

// matched reports whether a finding of res is the log's (the search keeps
// the one Until accepted only when a fresh replay reproduced it).
func matched(res *explore.Result, isLog func(checks.Finding) bool) bool {
	for _, fd := range res.Findings {
		if isLog(fd) {
			return true
		}
	}
	return false
}

// mergeRound adds a round's result to those before it: its findings and
// Met are the round's; notes, schedules, time and per-test counts add up.
func mergeRound(all, res *explore.Result, round int) *explore.Result {
	if round == 1 {
		return res
	}
	st := all.Stats
	st.Schedules += res.Stats.Schedules
	st.Elapsed += res.Stats.Elapsed
	st.Processes += res.Stats.Processes
	st.Findings = res.Stats.Findings
	for _, t := range res.Stats.Tests {
		i := slices.IndexFunc(st.Tests, func(u explore.TestStats) bool { return u.Package == t.Package && u.Test == t.Test })
		if i < 0 {
			st.Tests = append(st.Tests, t)
			continue
		}
		u := &st.Tests[i]
		u.Schedules += t.Schedules
		u.Failures += t.Failures
		u.Crashes += t.Crashes
		u.Elapsed += t.Elapsed
		u.Stopped += t.Stopped
		u.StepBound += t.StepBound
	}
	res.Stats = st
	res.Notes = append(all.Notes[:len(all.Notes):len(all.Notes)], res.Notes...)
	return res
}
