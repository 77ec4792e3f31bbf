package rt

// PlainStrategy is the name of the unperturbed strategy.
const PlainStrategy = "plain"

// Plain is the unperturbed schedule: it never preempts. The goroutine that
// ran last runs on while it can (after a hand-off on a channel, the side
// that came second, as in the runtime); when it blocks, the newest enabled
// goroutine runs (as Go's runtime runs a goroutine just started or woken
// next); when it calls Gosched while another can run, the one that waited
// longest runs (the scheduler's fast path; Next, without that history,
// the newest other); a select takes its first ready case, but for a loop
// that took a closed, empty channel's receive there last time (unstarve).
// A failure on this
// schedule is not caused by the interleaving: the driver compares the
// failures of the search with it.
type Plain struct{}

func (Plain) Reset(int64) {}

//go:norace
func (Plain) Next(enabled []Candidate, last int, step int) int {
	best, top := -1, -1
	for i := range enabled {
		c := &enabled[i]
		if c.G == last {
			if c.Op != "Gosched" || len(enabled) == 1 {
				return i
			}
			continue // it yields: another runs, as in the runtime
		}
		if best < 0 || c.G > top {
			best, top = i, c.G
		}
	}
	if best < 0 {
		return 0
	}
	return best
}

func (Plain) Choose(n int, step int) int { return 0 }

// unstarve is the case k of g's select r a decision of the unperturbed
// schedule takes instead of ready's k: when k is a receive from a closed,
// empty channel and g's last select, at the same call stack, took one too,
// the first ready case after that one, round the cases. Go picks among
// ready cases at random, so a loop that waits for its other closed
// channels (go-pkgz/pool's workers: `case v, ok := <-inCh: if !ok {
// normalClosed = true; continue }`, then batchCh) gets to them; always the
// first, it spun to the step bound. Other strategies choose at random
// already; a replay follows the record.
//
//go:norace
func (s *sched) unstarve(g *gstate, r *request, ready []int, k int) int {
	if _, plain := s.strat.(Plain); !plain || k < 0 {
		return k
	}
	drained := func(k int) bool { return s.drainedRecv(r.cases[k]) }
	replaying := s.replay != nil && s.diverged == ""
	if !replaying && len(ready) > 1 && g.drained && g.drainedAt == r.pcs && drained(k) {
		next := -1
		for _, c := range ready {
			if c > g.drainedCase && (next < 0 || c < next) {
				next = c
			}
		}
		if next < 0 {
			next = ready[0] // round the cases
		}
		k = next
	}
	g.drained = k >= 0 && drained(k)
	if g.drained {
		g.drainedAt, g.drainedCase = r.pcs, k
	}
	return k
}
