// A test whose every schedule fails alike: once it has shown that, its
// slice of the search goes to the other tests.

package explore

// alikeSchedules is how many schedules, all failing with one cause, make
// a test's failure systematic: further schedules of it bring nothing new
// (logrus-relock's TestEntryWriter, whose every schedule leaks, took 45.7
// s of a 2-minute search for 106 schedules).
const alikeSchedules = 8

// failsAlike reports whether every schedule t ran failed, with one cause,
// and it ran at least alikeSchedules; then its search stops (the worker
// loop, the batches' rounds, the passes after the report) and
// TestStats.FailsAlike says so. Not under a count of schedules, Until or
// TestUntil, which bound the search otherwise. s.mu is held.
func (s *search) failsAlike(t *target) bool {
	if t.stats.FailsAlike {
		return true
	}
	if s.opts.Schedules > 0 || s.opts.Until != nil || s.opts.TestUntil != nil || t.schedulesRun < alikeSchedules || t.passed > 0 {
		return false
	}
	causes := 0
	for k, owner := range s.owners {
		if owner == t && s.failures[k] != nil {
			causes++
		}
	}
	if causes != 1 {
		return false
	}
	t.stats.FailsAlike = true
	return true
}

// stillSearched reports whether t's search goes on: not when its every
// schedule failed alike.
func (s *search) stillSearched(t *target) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return !s.failsAlike(t)
}
