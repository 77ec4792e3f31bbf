package explore

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestShrinkLeavesCallersKeep: once the search is over, what the caller
// keeps for its own work on the failures (Options.KeepFor: the pull
// request's check on the base commit) is not spent on what a finding can
// do without. The finding's first replay runs (every finding replays),
// but not its second try, which only gives a rate, nor the shrinking of
// its schedule. ttlcache-stopfirst's leak: shrinking and replaying 3
// failing schedules took 23.3 s, the base commit got 1.4 s, and the leak
// went to the summary, "not compared". The test counts the fake binary's
// replays; the budget is an hour, the keep more than that, so nothing
// depends on the machine's speed. On main the keep was not read after
// the search: 2 tries and the shrinking's replays ran, and the schedule
// was shrunk from 2 preemptions to 0.
func TestShrinkLeavesCallersKeep(t *testing.T) {
	for _, tc := range []struct {
		name         string
		keep         time.Duration
		replays      int // fresh processes after the search
		shrunkFrom   int // Interleaving.Original
		preemptions  int
		replayedRate bool
	}{
		// Nothing kept: both tries, then one shrinking replay that
		// removes both preemptions.
		{"nothing kept", 0, replayTries + 1, 2, 0, false},
		// All that is left is kept: the first replay only.
		{"all kept", 2 * time.Hour, 1, 0, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &failure{kind: checks.TestFailure, message: "test failed: lost update", site: "/src/k/k_test.go:90", seed: 1, strategy: "random",
				decisions: []rt.Decision{
					{G: 0, Site: "k.go:1", Op: "atomic", Obj: 1}, {G: 1, Site: "k.go:2", Op: "atomic", Obj: 1},
					{G: 0, Site: "k.go:3", Op: "atomic", Obj: 1}, {G: 1, Site: "k.go:4", Op: "atomic", Obj: 1},
				}}
			s, tg, _ := fakeFinding(t, "TestShrinkable", f)
			tg.plainGo = &plainOutcome{} // ran under plain go test already: no label runs
			var asked int
			s.opts.KeepFor = func([]CauseCost) time.Duration { asked++; return tc.keep }
			s.hardStop = time.Now().Add(time.Hour)
			res, err := s.report(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if asked == 0 {
				t.Errorf("KeepFor not asked after the search")
			}
			if len(res.Findings) != 1 {
				t.Fatalf("%d findings, want 1 (notes %q)", len(res.Findings), res.Notes)
			}
			fd := res.Findings[0]
			if fd.NotReplayed != "" || fd.Interleaving == nil {
				t.Fatalf("finding not replayed (%q) or not told: %+v", fd.NotReplayed, fd)
			}
			counter := os.Getenv("FAKEBIN_REPLAYS")
			n, _ := os.ReadFile(counter)
			if len(n) != tc.replays {
				t.Errorf("%d replays after the search, want %d", len(n), tc.replays)
			}
			if it := fd.Interleaving; it.Original != tc.shrunkFrom || it.Preemptions != tc.preemptions {
				t.Errorf("told with %d preemptions (%d before shrinking), want %d (%d)", it.Preemptions, it.Original, tc.preemptions, tc.shrunkFrom)
			}
			// Its printed schedule replays.
			os.Remove(counter)
			s.opts.KeepFor, s.keptAfter = nil, 0
			if why, unchecked := s.replaysAlone(context.Background(), tg, &fd, nil); why != "" || unchecked {
				t.Errorf("the finding's schedule does not replay: %q, %v", why, unchecked)
			}
		})
	}
}
