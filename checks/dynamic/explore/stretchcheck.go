package explore

import (
	"context"
	"path/filepath"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// stretchOnly replays a failure whose schedule stretched the clock (rt's
// stretch.go: a loop's clock reads moved by a growing tick) once more with
// the stretch off, the same decisions. A run that follows them to the end
// and passes says the stretch made the failure: a clock only compared
// (entries stamped with time.Now and a TTL) ran ahead of the work, which
// go test's clock never does. It returns why, or "" when the failure
// stands: a data race (the race detector's, whatever the clock), no
// stretch, or a replay that failed, left the decisions, stopped at the
// step bound (a loop that works until a time has passed) or had no time.
func (s *search) stretchOnly(ctx context.Context, t *target, fd *checks.Finding, f *failure) string {
	if f == nil || !f.stretchedAny() || fd.Kind == checks.DataRace || t.bin == "" || fd.Schedule == "" || s.noReplayCheck {
		return ""
	}
	path := fd.Schedule
	if !filepath.IsAbs(path) {
		path = filepath.Join(s.opts.Dir, path)
	}
	sched, err := ReadSchedule(path)
	if err != nil || !sched.Stretch {
		return ""
	}
	plain := *sched
	plain.Stretch = false
	s.mu.Lock()
	var cost time.Duration
	if t.stats != nil {
		cost = t.stats.Cost
	}
	s.mu.Unlock()
	// As a finding's first replay alone: past the budget's end, to the
	// overrun's, when what is left does not hold one run.
	per := replayCost(cost, f.elapsed, s.fresh.recent())
	stopBy := s.stopBy()
	if !stopBy.IsZero() && time.Until(stopBy) < per {
		stopBy = s.overrunEnd()
	}
	deadline := replayDeadline(time.Now(), time.Time{}, stopBy, per, 1)
	res, stopped, err := replayWithin(ctx, s.replayer(t), &plain, path, deadline, stopBy)
	if stopped || err != nil || res == nil {
		return ""
	}
	if res.Outcome == Passed && res.Diverged == "" && res.Inconclusive == "" {
		return "the same decisions with the clock not stretched pass to their end: the stretch (a loop's clock reads moved ahead of its work) made it"
	}
	return ""
}
