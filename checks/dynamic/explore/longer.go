// A longer unperturbed run for a test whose first one stopped at the step bound.

package explore

import (
	"strings"
	"time"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// A test whose unperturbed run stopped at PlainMaxSteps (pond's tests of
// 10,000 tasks take 170,000-260,000 decisions) runs it again in the
// rounds of plainRuns, when they have the time: with longerFactor times
// the bound of the run before, at most longerTries times. One that ends
// within it replaces the first, and the test is searched with a bound
// from its steps; one that does not leaves the first standing (the test
// is searched at rt.DefaultMaxSteps, as before). A flat higher bound for
// every test would let ants' tests of 100,000 tasks (over a million
// decisions) spend their whole share on it.
const (
	longerFactor = 4
	longerTries  = 2
	// LongerMaxSteps is the bound of a test's last longer run.
	LongerMaxSteps = PlainMaxSteps * longerFactor * longerFactor
)

// longerWant is the slot and step bound of t's next longer unperturbed
// run: longerFactor times the last bound, in what that many steps take at
// its first run's pace, with half as much again and a second for its
// process; 0, 0 when it had its tries or that is more than at most. The
// caller holds s.mu.
func (t *target) longerWant(at time.Duration) (time.Duration, int) {
	r := t.boundFirst
	if r == nil || t.longerRuns >= longerTries || r.Steps <= 0 {
		return 0, 0
	}
	bound := PlainMaxSteps
	for i := 0; i <= t.longerRuns; i++ {
		bound *= longerFactor
	}
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
