package explore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// replayCheckSearch is a search of the fake binary's TestPass, which
// passes on every run, and a panic finding whose schedule it tells: a
// failure that came from outside the schedule (state an earlier schedule
// left in the process, as a handler on http.DefaultServeMux registered
// twice).
func replayCheckSearch(t *testing.T) (*search, *target, *checks.Finding) {
	t.Helper()
	s, tg, dir := newFakeSearch(t, "TestPass", fakeBudget, 1)
	sched := &rt.Schedule{
		Version: 1, Package: "example.com/k", Test: "TestPass", GoVersion: "go1.test", Strategy: "random", Seed: 2,
		Decisions: []rt.Decision{{G: 0, Op: "start"}},
		Failure:   &rt.Signature{Kind: string(checks.Panic), Message: "panic: http: multiple registrations for /bus", Site: "k.go:9"},
	}
	path := filepath.Join(dir, "TestPass-panic.json")
	if err := WriteSchedule(path, sched); err != nil {
		t.Fatal(err)
	}
	return s, tg, &checks.Finding{Kind: checks.Panic, Schedule: path}
}

// A finding whose replay check finds no time left in the budget is not
// reported (every finding replays): a panic that came from an earlier
// schedule's leftovers was reported when the hard stop cut its check.
// With time, the check runs and the fresh run's pass says why it is none.
func TestReplayCheckWithoutTime(t *testing.T) {
	s, tg, fd := replayCheckSearch(t)
	if why, unchecked := s.replaysAlone(context.Background(), tg, fd, false); why == "" || unchecked {
		t.Errorf("with time: replaysAlone = %q, %v; want the fresh run's pass, checked", why, unchecked)
	}

	s.hardStop = time.Now().Add(-time.Second)
	why, unchecked := s.replaysAlone(context.Background(), tg, fd, false)
	if !unchecked || !strings.Contains(why, "no time") {
		t.Errorf("replaysAlone = %q, %v; want unchecked for want of time", why, unchecked)
	}
}
