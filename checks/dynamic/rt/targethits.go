// Target hits: how often a schedule's operations ran at Config.Targets, and how often the targeted strategy preempted there.

package rt

// targetIndex maps a target's "file.go" to its lines and the target as
// given, for counting per target (Targeted matches the same way).
type targetIndex map[string][]targetLine

type targetLine struct {
	line int
	key  string // the target as given in Config.Targets
}

func indexTargets(targets []string) targetIndex {
	idx := targetIndex{}
	for _, s := range targets {
		if file, line, ok := splitSite(shortSite(s)); ok {
			idx[file] = append(idx[file], targetLine{line, s})
		}
	}
	return idx
}

// match calls f with each target at or within TargetNear lines of site
// ("file.go:12" or a full path).
func (idx targetIndex) match(site string, f func(key string)) {
	file, line, ok := splitSite(shortSite(site))
	if !ok {
		return
	}
	for _, t := range idx[file] {
		if line >= t.line-TargetNear && line <= t.line+TargetNear {
			f(t.key)
		}
	}
}

// countPreempt records that Targeted ran another goroutine instead of c,
// at each target c's operation (or a caller's line) is at.
func (t *Targeted) countPreempt(c Candidate) {
	if t.preempts == nil {
		t.preempts = map[string]int{}
	}
	seen := t.seen[:0] // reused: no allocation once it has room
	add := func(key string) {
		for _, k := range seen {
			if k == key {
				return
			}
		}
		seen = append(seen, key)
		t.preempts[key]++
	}
	t.keys.match(c.Site, add)
	for _, f := range c.Frames {
		t.keys.match(f, add)
	}
	t.seen = seen[:0]
}

// targetCounts fills r.TargetHits (the decisions of the schedule whose
// operation, or a user caller of it, is at or near each target) and
// r.TargetPreempts, when Config.Targets is set. Any strategy counts hits:
// the unperturbed run says which targets a test executes.
//
//go:norace
func (s *sched) targetCounts(r *Result) {
	if len(s.cfg.Targets) == 0 {
		return
	}
	idx := s.targets // indexTargets(s.cfg.Targets), made by newSched
	hits := map[string]int{}
	seen := map[string]bool{}
	add := func(key string) {
		if !seen[key] {
			seen[key] = true
			hits[key]++
		}
	}
	for i := 0; i < s.decPCs.len(); i++ {
		for k := range seen { // no clear: rt builds with go1.18 modules
			delete(seen, k)
		}
		for _, pc := range s.decPCs.at(i) {
			if pc == 0 {
				break
			}
			if site := s.siteAt(pc); site != "" {
				idx.match(site, add)
			}
		}
	}
	if len(hits) > 0 {
		r.TargetHits = hits
	}
	if t, ok := s.strat.(*Targeted); ok && len(t.preempts) > 0 {
		r.TargetPreempts = make(map[string]int, len(t.preempts))
		for k, v := range t.preempts {
			r.TargetPreempts[k] = v
		}
	}
}
