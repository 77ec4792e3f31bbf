// The time kept for the replays and not needed, given back to the search.

package explore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// passStride moves the schedule indexes of a worker in each search after
// the first (searchReturned): no seed runs twice.
const passStride = 1 << 28

// maxPasses bounds the searches after the first.
const maxPasses = 3

// returnedEnough: is left, the time the search kept after it and did not
// need, worth another search of the tests? At least a tenth of the budget
// and two seconds: less buys a few schedules for the cost of processes.
func returnedEnough(left, budget time.Duration) bool {
	return left >= max(budget/10, 2*time.Second)
}

// searchReturned gives the time the search kept for what follows it and
// did not need back to the search of the tests: the search ends where
// its reserve for the failures found says (replays priced at their
// tests' measured cost, a loaded machine's process start), and the
// replays may take far less (logrus: the stages after the builds took
// 65.8 s of 120). Once a report went through the failures, their reserve
// is free (search.reported); while what is left past the reserve of the
// failures still untold is returnedEnough, the tests with a choice are
// searched again, and the failures that pass finds are reported as the
// first pass's were; one of a cause a finding already told is folded
// away (one finding per cause). Not under Until, TestUntil or a count of
// schedules, which bound the search otherwise.
func (s *search) searchReturned(ctx context.Context, targets []*target, res *Result) (*Result, error) {
	if s.opts.Until != nil || s.opts.TestUntil != nil || s.opts.Schedules > 0 || s.deadline.IsZero() || res.Met {
		return res, nil
	}
	var searchable []*target
	for _, t := range targets {
		if !t.plainStopped && !t.stats.NoChoice {
			searchable = append(searchable, t)
		}
	}
	for pass := 1; pass <= maxPasses && len(searchable) > 0 && ctx.Err() == nil; pass++ {
		fit, left := s.returnedFit(targets, searchable)
		if fit == nil {
			break
		}
		s.mu.Lock()
		s.pass = pass
		old := len(s.order)
		s.mu.Unlock()
		endStage := s.stage(fmt.Sprintf("searching again for %v the replays did not need", left.Round(100*time.Millisecond)))
		s.searchTests(ctx, fit)
		for _, t := range targets {
			s.confirmCrashes(ctx, t)
		}
		s.mu.Lock()
		all := s.order
		fresh := slices.Clone(all[old:])
		s.mu.Unlock()
		endStage(fmt.Sprintf("%d new failing %s", len(fresh), checks.Plural(len(fresh), "schedule")))
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(fresh) == 0 {
			continue
		}
		s.mu.Lock()
		s.order = fresh
		s.mu.Unlock()
		more, err := s.report(ctx)
		s.mu.Lock()
		s.order = all
		s.mu.Unlock()
		if err != nil {
			return nil, err
		}
		for _, f := range more.Findings {
			if !joinsCause(res.Findings, f) {
				res.Findings = append(res.Findings, f)
			}
		}
		checks.Sort(res.Findings)
	}
	s.finish(res)
	return res, nil
}

// returnedFit is what is searched again, and for how long: targets less
// the costliest of searchable, left out one by one until the search after
// the reserve their late failures need (a replay at the cost of the
// costliest kept) is returnedEnough; nil when none is. Reserving for
// ristretto v2.4.2's tests of 2 to 5 s left none: its last 10 s of
// -budget 60s went unused.
func (s *search) returnedFit(targets, searchable []*target) ([]*target, time.Duration) {
	fit := slices.Clone(searchable)
	s.mu.Lock()
	cost := map[*target]time.Duration{}
	for _, t := range fit {
		cost[t] = t.replayCost()
	}
	s.mu.Unlock()
	slices.SortStableFunc(fit, func(a, b *target) int { return cmp.Compare(cost[a], cost[b]) })
	for ; len(fit) > 0; fit = fit[:len(fit)-1] {
		left := time.Until(s.deadline) - s.searchReserve(fit...)
		if !returnedEnough(left, s.opts.Budget) {
			continue
		}
		// In the order given (pr's aim, go test's); the others
		// (stopped, no choice) as searchTests takes them.
		most := cost[fit[len(fit)-1]]
		var out []*target
		for _, t := range targets {
			if c, ok := cost[t]; !ok || c <= most {
				out = append(out, t)
			}
		}
		return out, left
	}
	return nil, 0
}

// joinsCause reports whether f is of a cause one of told is (causes).
func joinsCause(told []checks.Finding, f checks.Finding) bool {
	all := append(slices.Clone(told), f)
	for _, g := range causes(all) {
		if slices.Contains(g, len(told)) {
			return len(g) > 1
		}
	}
	return false
}
