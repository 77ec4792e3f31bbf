// The step bound of each test's schedules: its unperturbed schedule's, then one that follows the steps that schedule took.

package explore

import (
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// PlainMaxSteps is the step bound of a test's unperturbed schedule when
// Options.MaxSteps is not set: five times rt.DefaultMaxSteps. A test
// that really takes more than the default (a real suite's thousands of
// goroutines, a long loop of operations) ends within it, and the steps it
// took set the bound of its other schedules (searchSteps); one that
// spins for ever is still stopped, inconclusive.
const PlainMaxSteps = 5 * rt.DefaultMaxSteps

// stepsFactor is how many times the steps of its unperturbed schedule a
// test's other schedules may take: another interleaving takes more steps
// (a spin loop waits longer, more goroutines block and wake), but not
// many times more unless it spins.
const stepsFactor = 2

// plainBound is the step bound of the unperturbed schedules.
func (s *search) plainBound() int {
	if s.opts.MaxSteps > 0 {
		return s.opts.MaxSteps
	}
	return PlainMaxSteps
}

// searchBound is the step bound of t's schedules after its unperturbed
// one: Options.MaxSteps when set, else what that one's steps gave
// (searchSteps), else rt.DefaultMaxSteps.
func (s *search) searchBound(t *target) int {
	if s.opts.MaxSteps > 0 {
		return s.opts.MaxSteps
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.maxSteps > 0 {
		return t.maxSteps
	}
	return rt.DefaultMaxSteps
}

// searchSteps is the step bound of a test's schedules after its
// unperturbed one r, run with the step bound given: stepsFactor times its
// steps, at least rt.DefaultMaxSteps and at most the larger of
// PlainMaxSteps and given (a longer unperturbed run's). One the step bound
// stopped (a test that needs more, or spins) keeps the default: the cheap
// bound for a test whose schedules are inconclusive anyway.
func searchSteps(r rt.Result, given int) int {
	if strings.HasPrefix(r.Inconclusive, rt.StepBoundPrefix) {
		return rt.DefaultMaxSteps
	}
	return min(max(stepsFactor*r.Steps, rt.DefaultMaxSteps), max(PlainMaxSteps, given))
}

// plainSteps records what t's unperturbed schedule r, run with the step
// bound given, took: its steps and the bound of its other schedules. One
// stopped at PlainMaxSteps is kept for a longer run (boundFirst). The
// caller holds s.mu.
func (s *search) plainSteps(t *target, r rt.Result, given int) {
	t.stats.PlainSteps = r.Steps
	t.maxSteps = searchSteps(r, given)
	if s.opts.MaxSteps > 0 {
		t.maxSteps = s.opts.MaxSteps
	}
	t.stats.MaxSteps = t.maxSteps
	t.boundFirst = nil
	if s.opts.MaxSteps == 0 && given == PlainMaxSteps && strings.HasPrefix(r.Inconclusive, rt.StepBoundPrefix) {
		t.boundFirst = &r
	}
}

// searchCost is what a schedule of the test costs after its unperturbed
// one r, which cost cost: as much, or less in proportion when r ran past
// the test's search bound (a test that spun to PlainMaxSteps searches at
// the default). Counted at r's cost, go.uber.org/atomic's TestStress
// (100,000 steps in 5.4 s, then schedules of 20,000) got no time of its
// own and the search ended with half its budget left.
func searchCost(cost time.Duration, r rt.Result, bound int) time.Duration {
	if bound > 0 && r.Steps > bound {
		return time.Duration(int64(cost) * int64(bound) / int64(r.Steps))
	}
	return cost
}
