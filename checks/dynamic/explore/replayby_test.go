package explore

import (
	"context"
	"testing"
	"time"
)

// A test process's rt.Config.ReplayBy keeps, before the end of the
// budget, its own exit and the replays' fresh processes at what the
// latest processes took outside their schedules (processStartup before
// any was measured); none without a budget end.
func TestReplayBy(t *testing.T) {
	t.Parallel()
	var s search
	if !s.replayBy().IsZero() {
		t.Fatal("no budget end: want no ReplayBy")
	}
	s.hardStop = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	if got, want := s.hardStop.Sub(s.replayBy()), (1+replayTries)*processStartup; got != want {
		t.Errorf("nothing measured: %v before the end, want %v", got, want)
	}
	s.fresh.add(1300 * time.Millisecond)
	if got, want := s.hardStop.Sub(s.replayBy()), (1+replayTries)*1300*time.Millisecond; got != want {
		t.Errorf("a process took 1.3s: %v before the end, want %v", got, want)
	}
}

// A worker starts no process for a test whose search had a failing
// schedule once the failure's replays, each as long as its longest
// schedule, no longer fit before ReplayBy (a leak ends its process: the
// next schedule needs a fresh one); it does while they fit.
func TestWorkerStopsForReplay(t *testing.T) {
	t.Parallel()
	for _, failed := range []bool{true, false} {
		s := &search{workDir: t.TempDir()}
		s.hardStop = time.Now().Add(time.Hour)
		tg := &target{name: "TestX", stats: &TestStats{}, step: 30 * time.Minute, failedRun: failed}
		s.worker(context.Background(), tg, 0, time.Now().Add(2*time.Hour))
		started := s.stats.Processes > 0 || len(s.notes) > 0
		if failed && started {
			t.Errorf("failed, replays do not fit: a process was started (%d, notes %q)", s.stats.Processes, s.notes)
		}
		if !failed && !started {
			t.Error("no failure: no process was started")
		}
	}
}
