// A longer unperturbed run for a test whose first one stopped at the step bound.

package explore

import (
	"context"
	"sort"
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// A test whose unperturbed run stopped at PlainMaxSteps with no failure
// (pond's tests of 10,000 tasks take 170,000-260,000 decisions) runs it
// again with longerFactor times the bound, once, after plainRuns' rounds
// of the slow tests and only when time is left before their end (the
// search's last third is its own). One that ends within it replaces the
// first, and the test is searched with a bound from its steps; one that
// does not leaves the first standing (the test is searched at
// rt.DefaultMaxSteps, as before). A flat higher bound for every test
// would let ants' tests of 100,000 tasks (over a million decisions) spend
// their whole share on it.
const (
	longerFactor = 4
	longerTries  = 1
	// LongerMaxSteps is the bound of a test's last longer run.
	LongerMaxSteps = PlainMaxSteps * longerFactor
)

// longerPass runs the longer unperturbed runs of targets that want one,
// the fastest first, each in its fair part of what is left until the
// rounds' end (roundsEnd), when that holds what it needs (longerWant).
func (s *search) longerPass(ctx context.Context, targets []*target) {
	var longer, searchable []*target
	s.mu.Lock()
	for _, t := range targets {
		if t.plainStopped {
			continue
		}
		searchable = append(searchable, t)
		if t.boundFirst != nil && t.longerRuns < longerTries && len(t.plainKeys) == 0 {
			longer = append(longer, t)
		}
	}
	s.mu.Unlock()
	if len(longer) == 0 || ctx.Err() != nil {
		return
	}
	end := s.roundsEndFor(searchable)
	if time.Until(end) <= 0 {
		return
	}
	sort.SliceStable(longer, func(i, j int) bool { return longer[i].boundFirst.Elapsed < longer[j].boundFirst.Elapsed })
	s.plainPass(ctx, longer, end, func(t *target, slot time.Duration) time.Duration {
		s.mu.Lock()
		defer s.mu.Unlock()
		want, bound := t.longerWant(min(slot, time.Until(end)))
		if want == 0 {
			return 0
		}
		t.longerBound = bound
		return want
	})
}

// longerWant is the slot and step bound of t's longer unperturbed run:
// longerFactor times the first bound, in what that many steps take at its
// first run's pace, with half as much again and a second for its process;
// 0, 0 when it had its try or that is more than at. The caller holds s.mu.
func (t *target) longerWant(at time.Duration) (time.Duration, int) {
	r := t.boundFirst
	if r == nil || t.longerRuns >= longerTries || r.Steps <= 0 {
		return 0, 0
	}
	bound := LongerMaxSteps
	pace := float64(r.Elapsed) / float64(r.Steps)
	want := time.Duration(pace*float64(bound)*3/2) + time.Second
	if want > at {
		return 0, 0
	}
	return want, bound
}

// longerEnded records the end of t's longer unperturbed run out, with
// the step bound bound (stopped at its slot when stopped): whether it
// ended within its bound, or crashed. Then it replaces the first run,
// whose count is taken back, and its caller records it as an unperturbed
// run; else the first stands.
func (s *search) longerEnded(t *target, out *childOutcome, stopped bool, bound int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	t.longerRuns++
	ended := !stopped && (len(out.results) > 0 || out.crashed >= 0)
	for _, r := range out.results {
		if strings.HasPrefix(r.Inconclusive, rt.StepBoundPrefix) {
			ended = false
		}
	}
	if !ended || t.boundFirst == nil {
		if !stopped && len(out.results) > 0 {
			t.stats.LongerSteps = bound
		}
		return false
	}
	s.uncount(t, *t.boundFirst)
	t.boundFirst = nil
	t.stats.LongerSteps = 0
	return true
}

// uncount takes back what counted and plainHits recorded of r, t's
// unperturbed run that stopped at the step bound, when a longer one
// replaces it. The caller holds s.mu.
func (s *search) uncount(t *target, r rt.Result) {
	s.stats.Schedules--
	t.stats.Schedules--
	if r.Kept > 0 {
		t.stats.Kept--
	}
	if r.Inconclusive != "" && r.Outcome == "pass" {
		t.stats.Inconclusive--
	}
	t.stats.StepBound--
	for site, n := range r.TargetHits {
		if i, ok := s.targetAt[site]; ok {
			s.stats.Targets[i].Hits -= n
			s.stats.Targets[i].Tests--
			t.stats.TargetHits -= n
		}
	}
}
