package explore

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/internal/testkit"
	"github.com/interleave-dev/interleave/checks/dynamic/rt"
)

// TestEarlySleepLabel: a failure reached only when a sleep ended before
// goroutines that could run (sleepsync's TestSharedLoad: the test sleeps
// so that both callers join one load) is a finding, replayed, labelled
// with the sleep that ended early (its site and duration) and the
// goroutine it passed over; a lock-order deadlock that needs no early
// sleep (TestTransfers, whose test sleeps too) carries no such label.
func TestEarlySleepLabel(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds, searches and replays a package; skipped with -short")
	}
	dir, err := filepath.Abs("../testdata/sleepsync")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	build, err := NewBuild(ctx, BuildOptions{Dir: dir, Patterns: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	defer build.Close()
	// A count, not a time: the search is test's (EarlySleep).
	res, err := Run(ctx, Options{
		Dir: dir, Patterns: []string{"."}, Budget: 5 * time.Minute, Seed: 1,
		SchedulesDir: t.TempDir(), Schedules: 100, Build: build, EarlySleep: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range res.Notes {
		t.Log("note:", n)
	}
	checkFindings(ctx, t, res, findingCheck{dir: dir, build: build, Want: testkit.Want{
		Kinds: map[string]checks.FailureKind{"TestSharedLoad": checks.Deadlock, "TestTransfers": checks.Deadlock},
	}})
	for _, f := range res.Findings {
		t.Logf("%s: %s", f.Test, f.Labels())
		switch f.Test {
		case "TestSharedLoad":
			e := f.EarlyTimers
			if e == nil || !e.Searched || len(e.Moves) == 0 {
				t.Fatalf("TestSharedLoad: labels %q, want the sleep that ended early", f.Labels())
			}
			w := e.Moves[0].Ended[0]
			if w.Op != "time.Sleep" || w.Site != "sleepsync_test.go:23" || w.Duration != "50ms" || !w.InTest || w.G != "g0" {
				t.Errorf("TestSharedLoad: ended %+v, want g0's time.Sleep(50ms) at sleepsync_test.go:23", w)
			}
			if len(e.Moves[0].Passed) == 0 {
				t.Errorf("TestSharedLoad: no goroutine passed over: %+v", e.Moves[0])
			}
			l := f.Labels()
			for _, want := range []string{"reached when g0's time.Sleep(50ms) at sleepsync_test.go:23 ended while g", "the test uses a sleep as synchronization", "plain go test can fail the same way"} {
				if !strings.Contains(l, want) {
					t.Errorf("TestSharedLoad: labels %q, want %q", l, want)
				}
			}
			sched, err := ReadSchedule(f.Schedule)
			if err != nil {
				t.Fatal(err)
			}
			early := false
			for _, d := range sched.Decisions {
				early = early || d.Early
			}
			if !early {
				t.Errorf("TestSharedLoad: its schedule file has no early jump")
			}
			// Its replay's finding says so too, without the search's claim.
			rep, err := newReplayer(ctx, sched, f.Schedule, ReplayOptions{Dir: dir, Build: build})
			if err != nil {
				t.Fatal(err)
			}
			rr, err := rep.run(ctx, sched, f.Schedule)
			rep.close()
			if err != nil {
				t.Fatal(err)
			}
			if rr.Outcome != Reproduced || rr.Finding == nil || rr.Finding.EarlyTimers == nil || rr.Finding.EarlyTimers.Searched ||
				!strings.Contains(rr.Finding.Labels(), "reached when g0's time.Sleep(50ms) at sleepsync_test.go:23 ended") {
				t.Errorf("TestSharedLoad: replay %s, finding %+v", rr.Outcome, rr.Finding)
			}
		case "TestTransfers":
			if f.EarlyTimers != nil {
				t.Errorf("TestTransfers: labels %q: the deadlock needs no early sleep", f.Labels())
			}
		}
	}
}

// TestKeepInsteadNoEarly: of two failing schedules of one failure, the
// one told is one without an early jump of the clock (it needs no loaded
// machine), even when longer; of two alike, the shorter.
func TestKeepInsteadNoEarly(t *testing.T) {
	t.Parallel()
	early := &failure{decisions: []rt.Decision{{G: 0}, {G: 0, Early: true}}, moves: []rt.EarlyMove{{Step: 1}}}
	plain := &failure{decisions: []rt.Decision{{G: 0}, {G: 1}, {G: 0}}}
	short := &failure{decisions: []rt.Decision{{G: 1}}}
	if !keepInstead(plain, early) {
		t.Error("a longer schedule without an early jump is not kept instead of one with")
	}
	if keepInstead(early, plain) {
		t.Error("a schedule with an early jump replaces one without")
	}
	if !keepInstead(short, plain) || keepInstead(plain, short) {
		t.Error("of two without early jumps, the shorter is not kept")
	}
	overlap := &failure{decisions: []rt.Decision{{G: 0, Early: true}}}
	if !keepInstead(overlap, plain) {
		t.Error("an early move that ended no wait (an AfterFunc's overlap, no EarlyMove) is no jump: the shorter is not kept")
	}
}
