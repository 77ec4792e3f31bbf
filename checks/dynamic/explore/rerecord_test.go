package explore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// divergingFinding is a search of the fake binary's test (TestDivergeSame
// or TestDivergePass) with one failure found on a later schedule of a
// search process, whose first decision a fresh process does not make (a
// pooled timer left by earlier schedules), and its finding.
func divergingFinding(t *testing.T, test string) (*search, *target, *checks.Finding) {
	t.Helper()
	return fakeFinding(t, test, &failure{kind: checks.TestFailure, message: "test failed: read: reset", site: "/src/k/k_test.go:60", seed: 4, strategy: "random",
		decisions: []rt.Decision{{G: 0, Site: "x.go:1", Op: "Timer.Reset"}}})
}

// countsReplays are the fake's tests whose replays count themselves in
// the file FAKEBIN_REPLAYS names (testdata/fakebin's countReplay).
var countsReplays = map[string]bool{"TestReplayFlaky": true, "TestReplayThenHang": true, "TestShrinkable": true, "TestShrinkResync": true, "TestShrinkCut": true}

// fakeFinding is a search of the fake binary's test with the one failure
// f, and its finding.
func fakeFinding(t *testing.T, test string, f *failure) (*search, *target, *checks.Finding) {
	t.Helper()
	s, tg, _ := newFakeSearch(t, test, fakeBudget, 1)
	// The fake's flaky and shrinkable replays count themselves in a file
	// shared by the search's processes, each in a directory of its own
	// (privateDir). The fake's other tests read no environment: theirs
	// set nothing, so that they may run in parallel.
	if countsReplays[test] {
		t.Setenv("FAKEBIN_REPLAYS", filepath.Join(t.TempDir(), "replays"))
	}
	k := test + "|" + f.key()
	s.failures[k], s.owners[k] = f, tg
	s.order = append(s.order, k)
	fd, err := s.finding(context.Background(), f, tg, false)
	if err != nil {
		t.Fatal(err)
	}
	return s, tg, &fd
}

// TestReplayRerecordsDiverged (issue 21, yamux): a fresh replay that
// leaves the recorded schedule and then fails the same way does not
// confirm the schedule as recorded. The finding is reported with the
// fresh run's own schedule, which replays to its end; one whose fresh run
// passes after leaving the schedule is not reported.
func TestReplayRerecordsDiverged(t *testing.T) {
	ctx := context.Background()
	s, tg, fd := divergingFinding(t, "TestDivergeSame")
	recorded := fd.Schedule
	if why, unchecked := s.replaysAlone(ctx, tg, fd, nil); why != "" || unchecked {
		t.Fatalf("replaysAlone = %q, %v; want reported", why, unchecked)
	}
	if fd.Schedule != recorded || fd.Replay != "interleave replay "+recorded {
		t.Errorf("finding's schedule %q, replay %q; want the same file, %q", fd.Schedule, fd.Replay, recorded)
	}
	path := filepath.Join(s.opts.Dir, fd.Schedule)
	sched, err := ReadSchedule(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(sched.Decisions) != 1 || sched.Decisions[0].Op != "go" {
		t.Fatalf("schedule file decisions %+v, want the fresh run's (go)", sched.Decisions)
	}
	tok, err := DecodeToken(fd.ReplayToken)
	if err != nil || len(tok.Decisions) != 1 || tok.Decisions[0].Op != "go" {
		t.Errorf("replay token %v, %v; want the fresh run's decisions", tok, err)
	}
	// The line the report prints replays to its end in a fresh process.
	res, err := s.replayer(tg).run(ctx, sched, path)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Reproduced || res.Diverged != "" {
		t.Errorf("replay of the reported schedule: %s, diverged %q; want reproduced as recorded", res.Outcome, res.Diverged)
	}

	s, tg, fd = divergingFinding(t, "TestDivergePass")
	why, unchecked := s.replaysAlone(ctx, tg, fd, nil)
	if why == "" || unchecked || !strings.Contains(why, "diverged decision 0") {
		t.Errorf("replaysAlone = %q, %v; want not reported, saying where the replay diverged", why, unchecked)
	}
}
