package guardedby_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/interleave-dev/interleave/checks/static/internal/passtest"

	"github.com/interleave-dev/interleave/checks/static/guardedby"
)

func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), guardedby.Analyzer, "bad", "forkjoin", "annotated", "locked", "dcl", "good", "mutexdoc", "negation", "embedded", "threadsafe", "unlockfunc", "sharedctx",
		"bggetter", "outerguard", "otherlock", "guardbelow", "lockhelper", "publication", "callerslocked", "contract", "starter", "inferredbg", "capturedrecv", "publishonce", "unlockers", "returnedfunc", "testcallers", "selflock", "joined", "condlock", "entryread", "relock", "lockedparam", "customlock", "construct", "serialiface", "perfunc", "closegate", "iterwait", "setupshards", "subfields", "condrlock")
	rules := map[string]bool{"IL1001": true, "IL1002": true, "IL1003": true, "IL1004": true, "IL1005": true, "IL1006": true, "IL1007": true, "IL1008": true, "IL1009": true, "IL5003": true}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !rules[d.Category] {
				t.Errorf("%s: category %q, want one of IL1001-IL1009", d.Message, d.Category)
			}
			// Goroutine evidence decides the rule: IL1004/IL1007 with it,
			// IL1006/IL1001 without.
			evidence := strings.Contains(d.Message, "runs on the goroutine") || strings.Contains(d.Message, "the type is documented as safe for concurrent use")
			switch d.Category {
			case "IL1004", "IL1007":
				if !evidence {
					t.Errorf("%s: %s without goroutine evidence", d.Message, d.Category)
				}
			case "IL1006", "IL1001":
				if evidence {
					t.Errorf("%s: %s with goroutine evidence", d.Message, d.Category)
				}
			}
			// IL1009 is IL1008 confirmed by a write on a shared value.
			if shared := strings.Contains(d.Message, "writes it on a shared value"); shared != (d.Category == "IL1009") {
				t.Errorf("%s: category %s", d.Message, d.Category)
			}
			if len(d.Related) == 0 {
				t.Errorf("%s: no related location", d.Message)
			}
		}
	}
}

// TestIdioms runs the pass on the idioms every pass must stay silent on.
func TestIdioms(t *testing.T) { passtest.Idioms(t, guardedby.Analyzer) }

// TestRelatedNamesSameField: the finding on c.inMsgs (a field promoted
// from the embedded stats) cites a locked access of c.inMsgs by that name,
// not countOut's c.outMsgs nor "c.stats" (issue 24).
func TestRelatedNamesSameField(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), guardedby.Analyzer, "embedded")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !strings.Contains(d.Message, "field c.inMsgs") {
				continue
			}
			for _, rel := range d.Related {
				if strings.HasSuffix(rel.Message, "accessed with c.mu held") {
					if rel.Message != "c.inMsgs accessed with c.mu held" {
						t.Errorf("related %q at %s, want c.inMsgs", rel.Message, r.Pass.Fset.Position(rel.Pos))
					}
					return
				}
			}
			t.Fatalf("no locked access related to %q", d.Message)
		}
	}
	t.Fatal("no finding on c.inMsgs")
}

// TestLockedHelperGrouped: Trim's three calls without q.mu are one IL1002
// finding whose related positions name the other two calls (issue 24:
// one finding per defect).
func TestLockedHelperGrouped(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), guardedby.Analyzer, "locked")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !strings.HasPrefix(d.Message, "call to q.trim without holding q.mu") {
				continue
			}
			var also []string
			for _, rel := range d.Related {
				if strings.HasPrefix(rel.Message, "also calls") {
					also = append(also, rel.Message)
				}
			}
			want := []string{"also calls q.grow here without holding q.mu", "also calls q.shrink here without holding q.mu"}
			if strings.Join(also, "|") != strings.Join(want, "|") {
				t.Errorf("related %q, want %q", also, want)
			}
			return
		}
	}
	t.Fatal("no finding on q.trim")
}

// TestFieldsGroupedByFunction: String's unlocked reads of p.channels,
// p.patterns and p.schannels (all guarded by p.mu) are one finding whose
// related positions name the other two fields (issue 24: one finding per
// defect).
func TestFieldsGroupedByFunction(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), guardedby.Analyzer, "perfunc")
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if !strings.HasPrefix(d.Message, "field p.channels read without holding p.mu") {
				continue
			}
			var also []string
			for _, rel := range d.Related {
				if strings.HasPrefix(rel.Message, "also ") {
					also = append(also, rel.Message)
				}
			}
			want := []string{"also p.patterns read here without holding p.mu", "also p.schannels read here without holding p.mu"}
			if strings.Join(also, "|") != strings.Join(want, "|") {
				t.Errorf("related %q, want %q", also, want)
			}
			// The merged findings' locked sides stay: pr pairs String
			// with each related position's method to confirm it.
			locked := map[string]bool{}
			for _, rel := range d.Related {
				if strings.HasSuffix(rel.Message, "accessed with p.mu held") {
					locked[strings.Fields(rel.Message)[0]] = true
				}
			}
			if !locked["p.channels"] || !locked["p.patterns"] || !locked["p.schannels"] {
				t.Errorf("locked sides among the related: %v, want p.channels, p.patterns, p.schannels", locked)
			}
			return
		}
	}
	t.Fatal("no finding on p.channels")
}
