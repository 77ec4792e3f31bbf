package explore

import "time"

// ReplayPlan runs a replay after a search only when it fits in what is
// left of the budget: its test's cost and a fresh process's start, or
// what the previous replay of the plan took when more (measured on Now
// from Fits to Done). A replay that does not fit does not run.
type ReplayPlan struct {
	// Left is what is left of the budget now (nil: no bound, every
	// replay fits).
	Left func() time.Duration
	Now  func() time.Time // time.Now when nil

	last  time.Duration // what the previous replay took
	began time.Time     // when the replay running now began (zero: none)
}

func (p *ReplayPlan) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// Fits reports whether a replay of a test of the given cost (0: unknown)
// fits in what is left, and when it does counts it as started now.
func (p *ReplayPlan) Fits(cost time.Duration) bool {
	if p == nil || p.Left == nil {
		return true
	}
	if p.Left() < max(cost+processStartup, p.last) {
		return false
	}
	p.began = p.now()
	return true
}

// Done tells the plan that the replay Fits let start has ended.
func (p *ReplayPlan) Done() {
	if p == nil || p.Left == nil || p.began.IsZero() {
		return
	}
	p.last, p.began = p.now().Sub(p.began), time.Time{}
}
