package explore

import (
	"sync"
	"time"
)

// freshCosts keeps what the run's latest test processes took outside their
// schedules: from their start to their first schedule, and from their last
// schedule to their exit. A replay runs in a fresh process, so the time a
// replay is given past the budget follows it (replayCost): on a machine
// whose load rose since a test's cost was measured, a fresh race-built
// process takes longer than that cost, and its finding was dropped for
// want of time to replay it.
type freshCosts struct {
	mu   sync.Mutex
	last [freshKeep]time.Duration
	n    int
	// stops are what the latest processes stopped by their deadline took
	// from it until they were gone (killed, reaped, their output read).
	stops [freshKeep]time.Duration
	ns    int
}

// freshKeep is how many of the latest processes count.
const freshKeep = 4

// add records one process's time outside its schedules.
func (c *freshCosts) add(d time.Duration) {
	if c == nil || d <= 0 {
		return
	}
	c.mu.Lock()
	c.last[c.n%freshKeep] = d
	c.n++
	c.mu.Unlock()
}

// addStop records what one process stopped at its deadline took from it
// until it was gone.
func (c *freshCosts) addStop(d time.Duration) {
	if c == nil || d <= 0 {
		return
	}
	c.mu.Lock()
	c.stops[c.ns%freshKeep] = d
	c.ns++
	c.mu.Unlock()
}

// recentStop is the longest of the latest freshKeep stops (0: none yet).
func (c *freshCosts) recentStop() time.Duration {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return longest(c.stops[:min(c.ns, freshKeep)])
}

// recent is the longest of the latest freshKeep processes' times (0: none
// measured yet).
func (c *freshCosts) recent() time.Duration {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return longest(c.last[:min(c.n, freshKeep)])
}

// longest is the longest of ds (0: none).
func longest(ds []time.Duration) time.Duration {
	var m time.Duration
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}

// replayCost is what one fresh replay of a failing schedule is expected to
// take: the test's measured cost (its unperturbed schedule in a process of
// its own), or, when longer, the failing schedule's own time plus what
// fresh processes take outside their schedules now.
func replayCost(cost, took, fresh time.Duration) time.Duration {
	return max(cost, took+fresh)
}

// replayDeadline is when a failure's replays, tries of them still to run,
// must end: until (its part of the budget), or, when later, a second and
// per each try from now, but never past the hard stop: the budget is kept
// (the search keeps the replays of a failure found at its end,
// searchReserve), and a replay still running then is stopped.
func replayDeadline(now, until, hardStop time.Time, per time.Duration, tries int) time.Time {
	least := now.Add(time.Second + time.Duration(tries)*per)
	if !hardStop.IsZero() && least.After(hardStop) {
		least = hardStop
	}
	if until.Before(least) {
		return least
	}
	return until
}
