// Aiming at Options.Targets: which sites each unperturbed run executed, the tests that executed some searched first with more of the budget, and the preemptions there.

package explore

import (
	"slices"
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
		if !slices.Contains(t.aimSites, site) {
			t.aimSites = append(t.aimSites, site)
		}
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
// there, multiplies the first group's weights by aimBoost. Among those,
// each weight is multiplied again by the test's part of the targets
// (aimScores) over the group's mean part, kept between 1/aimBoost and
// aimBoost: a test that runs changed code no other test runs gets more
// than one that runs only what every test runs (ttlcache v3.4.0's
// Test_Cache_set, the one test that runs the changed Start and Stop
// together, ran 2 schedules in its batches while tests that only run the
// changed Item code every test runs ran 50 to 70). In batches a weight
// only adds to the even spread (roundCounts' floor).
func aimFirst(ts []*target) []*target {
	out := append([]*target(nil), ts...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].stats.TargetHits > 0 && out[j].stats.TargetHits == 0 })
	hit := 0
	for _, t := range out {
		if t.stats.TargetHits > 0 {
			hit++
		}
	}
	if hit == 0 {
		return out
	}
	scores := aimScores(out[:hit])
	var mean float64
	for _, sc := range scores {
		mean += sc / float64(hit)
	}
	for i, t := range out[:hit] {
		f := 1.0
		if hit < len(out) {
			f = aimBoost
		}
		if mean > 0 {
			f *= min(max(scores[i]/mean, 1.0/aimBoost), aimBoost)
		}
		t.weight *= f
	}
	return out
}

// aimScores is each test's part of the targets its group's unperturbed
// runs executed: every target executed counts one, shared evenly by the
// tests that executed it.
func aimScores(ts []*target) []float64 {
	runs := map[string]int{}
	for _, t := range ts {
		for _, site := range t.aimSites {
			runs[site]++
		}
	}
	out := make([]float64, len(ts))
	for i, t := range ts {
		for _, site := range t.aimSites {
			out[i] += 1 / float64(runs[site])
		}
	}
	return out
}
