package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// TestNotReplayedInEveryFormat (issue 21): a failure the search saw but
// had no time left in its budget to replay is a finding labelled "not
// replayed: no time left" in every format, with its schedule and replay
// line: JSON (notReplayed), SARIF (the notReplayed property and the
// labels), text and markdown. Before, it was a note.
func TestNotReplayedInEveryFormat(t *testing.T) {
	f := checks.Finding{Rule: checks.DynamicRuleID(checks.Leak), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.Leak,
		Test: "TestPoller", Pos: checks.Position{File: "/repo/poller.go", Line: 21},
		Message:     "TestPoller: leak: goroutines still running after the test returned, 4000 decisions later",
		Schedule:    ".interleave/schedules/TestPoller-leak-1.json",
		Replay:      "interleave replay .interleave/schedules/TestPoller-leak-1.json",
		Frequency:   &checks.Frequency{Failing: 17, Schedules: 25},
		NotReplayed: checks.NotReplayedNoTime}
	r := &Report{Root: "/repo", ToolVersion: "v0.1.0", Findings: []checks.Finding{f}}
	const label = "not replayed: no time left"

	var jb bytes.Buffer
	if err := (JSON{}).Write(&jb, r); err != nil {
		t.Fatal(err)
	}
	jr, err := DecodeJSON(jb.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(jr.Findings) != 1 || jr.Findings[0].NotReplayed != checks.NotReplayedNoTime || jr.Findings[0].Replay != f.Replay || jr.Findings[0].Schedule != f.Schedule {
		t.Errorf("JSON findings %+v, want the one, notReplayed %q, with its schedule and replay line", jr.Findings, checks.NotReplayedNoTime)
	}

	var sb bytes.Buffer
	if err := (SARIF{}).Write(&sb, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Results []struct {
				Properties map[string]any `json:"properties"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sb.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 || len(doc.Runs[0].Results) != 1 {
		t.Fatalf("SARIF results: %+v", doc.Runs)
	}
	props := doc.Runs[0].Results[0].Properties
	if props["notReplayed"] != checks.NotReplayedNoTime || !strings.Contains(props["labels"].(string), label) || props["replay"] != f.Replay {
		t.Errorf("SARIF properties %v, want notReplayed, the label and the replay line", props)
	}

	for _, format := range []string{"text", "markdown"} {
		w, err := New(format)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := w.Write(&b, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), label) || !strings.Contains(b.String(), f.Replay) {
			t.Errorf("%s output lacks the label %q or the replay line:\n%s", format, label, b.String())
		}
	}
}
