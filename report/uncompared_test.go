package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
)

// TestUncomparedInEveryFormat: a failure the base commit could not be
// compared on is in the JSON report (uncompared), in SARIF without a
// baselineState, in the text output and in the summary; never among the
// findings the pull request is told about on the diff.
func TestUncomparedInEveryFormat(t *testing.T) {
	f := checks.Finding{Rule: checks.DynamicRuleID(checks.Leak), Severity: checks.Error, Evidence: checks.Dynamic, Kind: checks.Leak,
		Test: "TestStamp", Pos: checks.Position{File: "/repo/stamp.go", Line: 26},
		Message: "TestStamp: leak (not compared: the base commit cannot run it (build .: stamp_test.go:8:10: undefined: Stamp))",
		Replay:  "interleave replay .interleave/schedules/TestStamp-leak-1.json"}
	r := &Report{Root: "/repo", ToolVersion: "v0.1.0", Uncompared: []checks.Finding{f}}

	var jb bytes.Buffer
	if err := (JSON{}).Write(&jb, r); err != nil {
		t.Fatal(err)
	}
	jr, err := DecodeJSON(jb.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(jr.Uncompared) != 1 || len(jr.Findings) != 0 || jr.Uncompared[0].Test != "TestStamp" {
		t.Errorf("JSON: %d uncompared, %d findings", len(jr.Uncompared), len(jr.Findings))
	}

	var sb bytes.Buffer
	if err := (SARIF{}).Write(&sb, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Results []map[string]any `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sb.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Runs) != 1 || len(doc.Runs[0].Results) != 1 {
		t.Fatalf("SARIF results: %+v", doc.Runs)
	}
	if b, ok := doc.Runs[0].Results[0]["baselineState"]; ok {
		t.Errorf("SARIF baselineState %v for a failure not compared", b)
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
		if !strings.Contains(b.String(), "undefined: Stamp") || !strings.Contains(strings.ToLower(b.String()), "not compared") {
			t.Errorf("%s output does not list the failure as not compared:\n%s", format, b.String())
		}
	}
}
