package testkit

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// recorder is a testing.TB that keeps what the check under test says.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()             {}
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Errorf(format string, a ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, a...))
}

func finding(test string, kind checks.FailureKind, line int) checks.Finding {
	return checks.Finding{Test: test, Kind: kind, Message: "lost update", Schedule: test + ".sched",
		Pos: checks.Position{File: "a_test.go", Line: line}}
}

// TestCheckFindings: each way a search's findings can miss what a case
// wants is an error, and a finding that replays as recorded is none.
func TestCheckFindings(t *testing.T) {
	same := func(f checks.Finding) (Replayed, error) {
		return Replayed{Reproduced: true, Outcome: "reproduced", Finding: &f}, nil
	}
	moved := func(f checks.Finding) (Replayed, error) {
		f.Pos.Line++
		return Replayed{Reproduced: true, Outcome: "reproduced", Finding: &f}, nil
	}
	for _, c := range []struct {
		name     string
		findings []checks.Finding
		want     Want
		replay   func(checks.Finding) (Replayed, error)
		errs     []string // substrings of the errors, in order
	}{
		{"found and replayed", []checks.Finding{finding("TestA", checks.DataRace, 7)},
			Want{Kinds: map[string]checks.FailureKind{"TestA": checks.DataRace}, Sites: map[string]string{"TestA": "b_test.go:1|a_test.go:7"}, Msgs: map[string][]string{"TestA": {"lost"}}},
			same, nil},
		{"false alarm", []checks.Finding{finding("TestA", checks.DataRace, 7)},
			Want{Kinds: map[string]checks.FailureKind{"TestA": ""}}, same, []string{"TestA: false alarm"}},
		{"missed", nil,
			Want{Kinds: map[string]checks.FailureKind{"TestA": checks.DataRace}}, same, []string{"TestA: got 0 findings"}},
		{"two, one wanted", []checks.Finding{finding("TestA", checks.DataRace, 7), finding("TestA", checks.DataRace, 9)},
			Want{Kinds: map[string]checks.FailureKind{"TestA": checks.DataRace}}, same, []string{"TestA: got 2 findings"}},
		{"two, many allowed", []checks.Finding{finding("TestA", checks.DataRace, 7), finding("TestA", checks.DataRace, 9)},
			Want{Kinds: map[string]checks.FailureKind{"TestA": checks.DataRace}, Many: map[string]bool{"TestA": true}}, same, nil},
		{"wrong kind", []checks.Finding{finding("TestA", checks.Deadlock, 7)},
			Want{Kinds: map[string]checks.FailureKind{"TestA": checks.DataRace}}, same, []string{"TestA: got 1 findings [deadlock]"}},
		{"wrong site and message", []checks.Finding{finding("TestA", checks.DataRace, 7)},
			Want{Kinds: map[string]checks.FailureKind{"TestA": checks.DataRace}, Sites: map[string]string{"TestA": "a_test.go:8"}, Msgs: map[string][]string{"TestA": {"deadlock"}}},
			same, []string{"finding at a_test.go:7, want a_test.go:8", `want it to contain "deadlock"`}},
		{"replay fails", []checks.Finding{finding("TestA", checks.DataRace, 7)},
			Want{Kinds: map[string]checks.FailureKind{"TestA": checks.DataRace}},
			func(checks.Finding) (Replayed, error) { return Replayed{}, errors.New("no build") }, []string{"TestA: replay: no build"}},
		{"replay passes", []checks.Finding{finding("TestA", checks.DataRace, 7)},
			Want{Kinds: map[string]checks.FailureKind{"TestA": checks.DataRace}},
			func(checks.Finding) (Replayed, error) { return Replayed{Outcome: "passed"}, nil }, []string{"TestA: replay passed"}},
		{"replay on another line", []checks.Finding{finding("TestA", checks.DataRace, 7)},
			Want{Kinds: map[string]checks.FailureKind{"TestA": checks.DataRace}}, moved, nil},
		{"replay on another line, same line wanted", []checks.Finding{finding("TestA", checks.DataRace, 7)},
			Want{Kinds: map[string]checks.FailureKind{"TestA": checks.DataRace}, SameLine: true}, moved, []string{"TestA: replay reproduced"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &recorder{TB: t}
			CheckFindings(r, c.findings, c.want, c.replay)
			if len(r.errs) != len(c.errs) {
				t.Fatalf("errors %q, want %d: %q", r.errs, len(c.errs), c.errs)
			}
			for i, e := range c.errs {
				if !strings.Contains(r.errs[i], e) {
					t.Errorf("error %q, want it to contain %q", r.errs[i], e)
				}
			}
		})
	}
}

func TestPredicates(t *testing.T) {
	fs := []checks.Finding{finding("TestA", checks.DataRace, 7)}
	if !AllFound(fs, map[string]checks.FailureKind{"TestA": checks.DataRace, "TestB": ""}) {
		t.Error("AllFound: TestA's race not found")
	}
	if AllFound(fs, map[string]checks.FailureKind{"TestA": checks.Deadlock}) {
		t.Error("AllFound: a deadlock found in a race")
	}
	if !SiteIn("x/a_test.go:7", "b.go:1|a_test.go:7") || SiteIn("x/a_test.go:7", "a_test.go:8") || !SiteIn("x/a_test.go:7", "") {
		t.Error("SiteIn: wrong")
	}
	if !ContainsAny([]string{"a", "the budget ran out"}, "budget") || ContainsAny([]string{"a"}, "budget") {
		t.Error("ContainsAny: wrong")
	}
	if got := WithStep(map[string][]string{"T": {"after {step}"}}, 2e9)["T"]; len(got) != 1 || got[0] != "after 2s" {
		t.Errorf("WithStep: %q", got)
	}
}
