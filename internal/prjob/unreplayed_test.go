package prjob

import (
	"context"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/affected"
	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
)

// A new failure whose schedule the budget left no time to replay is told
// in the summary, labelled, never on the diff as the change's; a
// replayed one beside it is new as before.
func TestUnreplayedNotOnTheDiff(t *testing.T) {
	some := &checks.Frequency{Failing: 1, Schedules: 40}
	plain := &checks.PlainGo{Command: "go test -run '^TestX$'", Runs: 1}
	r := &job{opts: &Options{}, change: &affected.Change{Base: affected.Empty}}
	dyn := []checks.Finding{
		{Kind: checks.Leak, Test: "TestX", Message: "leak", Frequency: some, PlainGo: plain, NotReplayed: checks.NotReplayedNoTime},
		{Kind: checks.Leak, Test: "TestY", Message: "leak", Frequency: some, PlainGo: plain},
	}
	news, pre, unc := r.byCause(context.Background(), dyn)
	if len(news) != 1 || news[0].Test != "TestY" {
		t.Errorf("new: %+v, want TestY's replayed failure only", news)
	}
	if len(pre) != 0 {
		t.Errorf("pre-existing: %+v, want none", pre)
	}
	if len(unc) != 1 || unc[0].Test != "TestX" || !strings.Contains(unc[0].Message, "not replayed: "+checks.NotReplayedNoTime) || unc[0].Baseline == checks.BaselineNew {
		t.Errorf("summary only: %+v, want TestX's unreplayed failure, labelled, not new", unc)
	}
	if !strings.Contains(strings.Join(r.notes, "\n"), "1 dynamic failure not replayed in a fresh process") {
		t.Errorf("notes %q do not say the failure was not replayed", r.notes)
	}
}

// TestUncomparedNotes: failures not compared for want of time are said
// so, not blamed on a base that could not build or run them
// (gocron-stop-twice's three, with the one clock), nor those too rare
// to compare.
func TestUncomparedNotes(t *testing.T) {
	got := strings.Join(uncomparedNotes(6, 3, 2, "a9ed5775a716ffff"), "\n")
	for _, w := range []string{"1 dynamic failure not compared with the base commit a9ed5775a716 (it has the tests but could not build or run them)",
		"3 dynamic failures not compared with the base commit a9ed5775a716 (no time was left in -budget to replay them there",
		"2 dynamic failures not compared with the base commit a9ed5775a716 (too rare to compare in the time left"} {
		if !strings.Contains(got, w) {
			t.Errorf("notes %q lack %q", got, w)
		}
	}
	if n := uncomparedNotes(0, 0, 0, "x"); len(n) != 0 {
		t.Errorf("notes %q for none", n)
	}
}

// TestTooRareNotOnTheDiff: a failure the base commit missed on too few
// schedules for how rarely the head had it (gocron-stop-twice's
// TestScheduler_SingletonMode/with_job_removal, 1 of 2 on the head, its
// schedule and 1 more on the base) goes to the summary as not compared,
// never as new, and plain go test is not run for it; a failure on every
// schedule that the base missed is new as before.
func TestTooRareNotOnTheDiff(t *testing.T) {
	plain := &checks.PlainGo{Command: "go test -run '^TestX$'", Runs: 1}
	dyn := []checks.Finding{
		{Kind: checks.TestFailure, Test: "TestRare", Message: "Restart should not occur", Frequency: &checks.Frequency{Failing: 1, Schedules: 2}},
		{Kind: checks.Deadlock, Test: "TestEvery", Message: "deadlock", Frequency: &checks.Frequency{Failing: 3, Schedules: 3}, PlainGo: plain},
	}
	r := &job{opts: &Options{}, change: &affected.Change{Base: "HEAD~1", MergeBase: "a9ed5775a716ffff"}, baseVerdicts: func(_ context.Context, fs []checks.Finding) ([]explore.BaseVerdict, error) {
		return []explore.BaseVerdict{
			{How: "too rare to compare in the time left: it failed on 1 of 2 schedules here, and the base commit ran its schedule and 1 schedule of its test, under the 39 that would show it fails less often there", Unconfirmed: true, Uncompared: true, TooRare: true},
			{How: "neither its schedule nor 40 schedules of a search of TestEvery fail this way on the base commit"},
		}, nil
	}}
	news, pre, unc := r.byCause(context.Background(), dyn)
	if len(news) != 1 || news[0].Test != "TestEvery" || news[0].Baseline != checks.BaselineNew {
		t.Errorf("new: %+v, want TestEvery's only", news)
	}
	if len(pre) != 0 {
		t.Errorf("pre-existing: %+v, want none", pre)
	}
	if len(unc) != 1 || unc[0].Test != "TestRare" || unc[0].Baseline == checks.BaselineNew || !strings.Contains(unc[0].Message, "(not compared: too rare to compare in the time left") {
		t.Errorf("summary only: %+v, want TestRare's, not compared, too rare", unc)
	}
	if unc[0].PlainGo != nil {
		t.Errorf("plain go test ran for the too-rare failure: %+v", unc[0].PlainGo)
	}
	if notes := strings.Join(r.notes, "\n"); !strings.Contains(notes, "1 dynamic failure not compared with the base commit a9ed5775a716 (too rare to compare") || strings.Contains(notes, "could not build or run") {
		t.Errorf("notes %q", notes)
	}
}
