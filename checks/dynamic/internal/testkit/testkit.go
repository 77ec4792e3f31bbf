// Package testkit holds what the explore package's tests share across
// their test packages (explore itself, realsuitetest, robusttest,
// searchtest, kerneltest): checking a search's findings against what a case
// wants, replaying each, and the small predicates around that. It does not
// import explore, so that explore's own tests can use it; a caller passes
// the replay as a function.
package testkit

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/interleave-dev/interleave/checks"
)

// Want is what a case wants of a search's findings.
type Want struct {
	// Kinds is the finding each named test must produce ("" for none).
	Kinds map[string]checks.FailureKind
	// Sites is the file:line suffix of each test's finding ("|" between
	// alternatives; "" for any), Msgs substrings of its message.
	Sites map[string]string
	Msgs  map[string][]string
	// Many names the tests that may have several findings of their kind
	// (one per goroutine a test leaves running, say); each replays.
	Many map[string]bool
	// SameLine: the replayed finding must also be on the finding's line.
	SameLine bool
}

// Replayed is what replaying one finding's schedule gave.
type Replayed struct {
	Reproduced bool   // the same kind of failure at the same site
	Outcome    string // the replay's outcome, for messages
	Finding    *checks.Finding
	Diverged   string
}

// CheckFindings checks that each test w.Kinds names has exactly the finding
// it wants and that every finding replays (by replay, in a fresh process).
func CheckFindings(t testing.TB, findings []checks.Finding, w Want, replay func(checks.Finding) (Replayed, error)) {
	t.Helper()
	for test, kind := range w.Kinds {
		var got []checks.Finding
		for _, f := range findings {
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
		if len(got) == 0 || !w.Many[test] && len(got) != 1 || slices.ContainsFunc(got, func(f checks.Finding) bool { return f.Kind != kind }) {
			for _, f := range got {
				t.Logf("%s: %s at %v: %s", test, f.Kind, f.Pos, f.Message)
			}
			t.Errorf("%s: got %d findings %v, want one %s", test, len(got), Kinds(got), kind)
			continue
		}
		for _, f := range got {
			if site := w.Sites[test]; !SiteIn(f.Pos.String(), site) {
				t.Errorf("%s: finding at %v, want %s", test, f.Pos, site)
			}
			for _, m := range w.Msgs[test] {
				if !strings.Contains(f.Message, m) {
					t.Errorf("%s: message %q, want it to contain %q", test, f.Message, m)
				}
			}
			rr, err := replay(f)
			if err != nil {
				t.Errorf("%s: replay: %v", test, err)
				continue
			}
			if !rr.Reproduced || rr.Finding == nil || rr.Finding.Kind != kind || (w.SameLine && rr.Finding.Pos.Line != f.Pos.Line) {
				t.Errorf("%s: replay %s (%v, diverged %q), want %s at %v again", test, rr.Outcome, rr.Finding, rr.Diverged, kind, f.Pos)
			}
		}
	}
}

// SiteIn reports whether pos ends with one of the "|"-separated sites.
func SiteIn(pos, sites string) bool {
	for _, s := range strings.Split(sites, "|") {
		if strings.HasSuffix(pos, s) {
			return true
		}
	}
	return false
}

// AllFound says whether findings has every finding want names.
func AllFound(findings []checks.Finding, want map[string]checks.FailureKind) bool {
	for test, kind := range want {
		if kind == "" {
			continue
		}
		if !slices.ContainsFunc(findings, func(f checks.Finding) bool { return f.Test == test && f.Kind == kind }) {
			return false
		}
	}
	return true
}

// ContainsAny says whether one of list contains sub.
func ContainsAny(list []string, sub string) bool {
	return slices.ContainsFunc(list, func(s string) bool { return strings.Contains(s, sub) })
}

// Kinds lists the findings' kinds.
func Kinds(fs []checks.Finding) []checks.FailureKind {
	var out []checks.FailureKind
	for _, f := range fs {
		out = append(out, f.Kind)
	}
	return out
}

// WithStep returns msgs with {step} replaced by the watchdog step.
func WithStep(msgs map[string][]string, step time.Duration) map[string][]string {
	out := map[string][]string{}
	for test, ms := range msgs {
		for _, m := range ms {
			out[test] = append(out[test], strings.ReplaceAll(m, "{step}", step.String()))
		}
	}
	return out
}

// CheckPlain checks that the findings of each test wantPlain names (of the
// kind want names) are labelled with plain go test's outcome: run, and
// failing too exactly when wantPlain says so.
func CheckPlain(t testing.TB, findings []checks.Finding, want map[string]checks.FailureKind, wantPlain map[string]bool) {
	t.Helper()
	for test, fails := range wantPlain {
		for _, f := range findings {
			if f.Test == test && f.Kind == want[test] && (f.PlainGo == nil || f.PlainGo.Runs == 0 || f.PlainGo.Fails() != fails) {
				t.Errorf("%s: labels %q, want plain go test run, failing too: %v", test, f.Labels(), fails)
			}
		}
	}
}
