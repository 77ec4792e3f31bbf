// Aiming at Options.Targets: which sites each unperturbed run executed, the tests that executed some searched first with more of the budget, and the preemptions there.

package explore

import (
	"sort"

	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TargetStats is one Options.Targets site: how often the unperturbed runs
// executed it (decisions at or near it, over all tests), by how many tests,
// and how often the search preempted there.
type TargetStats struct {
	Site      string `json:"site"`
	Hits      int    `json:"hits"`
	Tests     int    `json:"tests"`
	Preempted int    `json:"preempted"`
}

// aimBoost multiplies the weight of a test whose unperturbed run executed
// a target, when some other test's did not: the budget goes to the tests
// that run the targeted code first.
const aimBoost = 4

// startTargets lists every target in the stats, none executed yet.
// s.mu is held.
func (s *search) startTargets() {
	s.stats.Targets = nil
	s.targetAt = map[string]int{}
	for _, site := range s.opts.Targets {
		if _, ok := s.targetAt[site]; ok {
			continue
		}
		s.targetAt[site] = len(s.stats.Targets)
		s.stats.Targets = append(s.stats.Targets, TargetStats{Site: site})
	}
}

// plainHits records the targets t's unperturbed run executed.
func (s *search) plainHits(t *target, r rt.Result) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t.subtests = r.Subtests
	for site, n := range r.TargetHits {
		i, ok := s.targetAt[site]
		if !ok {
			continue
		}
		s.stats.Targets[i].Hits += n
		s.stats.Targets[i].Tests++
		t.stats.TargetHits += n
	}
}

// countPreempts adds a schedule's preemptions at targets. s.mu is held.
func (s *search) countPreempts(r rt.Result) {
	for site, n := range r.TargetPreempts {
		if i, ok := s.targetAt[site]; ok {
			s.stats.Targets[i].Preempted += n
		}
	}
}

// aimFirst orders the tests whose unperturbed run executed a target
// before the others (each group in its order) and, when both groups are
// there, multiplies the first group's weights by aimBoost.
func aimFirst(ts []*target) []*target {
	out := append([]*target(nil), ts...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].stats.TargetHits > 0 && out[j].stats.TargetHits == 0 })
	hit := 0
	for _, t := range out {
		if t.stats.TargetHits > 0 {
			hit++
		}
	}
	if hit > 0 && hit < len(out) {
		for _, t := range out[:hit] {
			t.weight *= aimBoost
		}
	}
	return out
}
