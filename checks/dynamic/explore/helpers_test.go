package explore

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// findingCheck is what checkFindings asserts of a search's findings.
type findingCheck struct {
	dir  string        // the module the search ran in
	step time.Duration // ReplayOptions.StepTimeout
	// want is the finding each named test must produce ("" for none),
	// wantSite its position (matched by siteOK) and wantMsg substrings of
	// its message.
	want     map[string]checks.FailureKind
	wantSite map[string]string
	wantMsg  map[string][]string
	siteOK   func(pos, site string) bool
	// sameLine: the replayed finding must also be on the finding's line.
	sameLine bool
	// many names the tests that may have several findings of their kind
	// (one per goroutine a test leaves running, say); each replays.
	many map[string]bool
}

// checkFindings checks that each test named in c.want has exactly the
// finding it wants and that every finding replays in a fresh process; the
// package is built once for all of them.
func checkFindings(ctx context.Context, t *testing.T, res *Result, c findingCheck) {
	t.Helper()
	var rep *replayer
	for test, kind := range c.want {
		var got []checks.Finding
		for _, f := range res.Findings {
			if f.Test == test {
				got = append(got, f)
			}
		}
		if kind == "" {
			for _, f := range got {
				t.Errorf("%s: false alarm %s at %v: %s", test, f.Kind, f.Pos, f.Message)
			}
			continue
		}
		if len(got) == 0 || !c.many[test] && len(got) != 1 || slices.ContainsFunc(got, func(f checks.Finding) bool { return f.Kind != kind }) {
			for _, f := range got {
				t.Logf("%s: %s at %v: %s", test, f.Kind, f.Pos, f.Message)
			}
			t.Errorf("%s: got %d findings %v, want one %s", test, len(got), kinds(got), kind)
			continue
		}
		for _, f := range got {
			rep = checkFinding(ctx, t, c, rep, test, kind, f)
		}
	}
	if rep != nil {
		rep.close()
	}
}

// checkFinding checks one finding of test and replays it with rep (built
// first when nil), which it returns.
func checkFinding(ctx context.Context, t *testing.T, c findingCheck, rep *replayer, test string, kind checks.FailureKind, f checks.Finding) *replayer {
	t.Helper()
	if site := c.wantSite[test]; !c.siteOK(f.Pos.String(), site) {
		t.Errorf("%s: finding at %v, want %s", test, f.Pos, site)
	}
	for _, m := range c.wantMsg[test] {
		if !strings.Contains(f.Message, m) {
			t.Errorf("%s: message %q, want it to contain %q", test, f.Message, m)
		}
	}
	sched, err := ReadSchedule(f.Schedule)
	if err != nil {
		t.Errorf("%s: %v", test, err)
		return rep
	}
	if rep == nil {
		if rep, err = newReplayer(ctx, sched, f.Schedule, ReplayOptions{Dir: c.dir, StepTimeout: c.step}); err != nil {
			t.Fatalf("replay build: %v", err)
		}
	}
	rr, err := rep.run(ctx, sched, f.Schedule)
	if err != nil {
		t.Errorf("%s: replay: %v", test, err)
		return rep
	}
	if rr.Outcome != Reproduced || rr.Finding == nil || rr.Finding.Kind != kind || (c.sameLine && rr.Finding.Pos.Line != f.Pos.Line) {
		t.Errorf("%s: replay %s (%v, diverged %q), want %s at %v again", test, rr.Outcome, rr.Finding, rr.Diverged, kind, f.Pos)
	}
	return rep
}

// kernelsDir is the nested module of bug kernels; kerneltest searches all
// of them, the tests here a few.
const kernelsDir = "../testdata/kernels"
