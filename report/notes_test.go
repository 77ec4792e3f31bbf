package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestNotesReachMachines: the search's notes are in the JSON report (notes)
// and in SARIF (the invocation's toolExecutionNotifications), and the SARIF
// still validates; a report without notes has neither.
func TestNotesReachMachines(t *testing.T) {
	notes := []string{"TestA: not reported: its schedule did not reproduce it", "second note"}
	r := &Report{Root: "/repo", ToolVersion: "v0.1.0", Notes: notes}

	var jb bytes.Buffer
	if err := (JSON{}).Write(&jb, r); err != nil {
		t.Fatal(err)
	}
	jr, err := DecodeJSON(jb.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(jr.Notes) != 2 || jr.Notes[0] != notes[0] || jr.Notes[1] != notes[1] {
		t.Errorf("JSON notes = %q, want %q", jr.Notes, notes)
	}

	var sb bytes.Buffer
	if err := (SARIF{}).Write(&sb, r); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(sb.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := sarifSchema(t).Validate(inst); err != nil {
		t.Fatalf("sarif with notes does not validate: %v\n%s", err, sb.String())
	}
	var log struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Notifications       []struct {
					Level   string `json:"level"`
					Message struct {
						Text string `json:"text"`
					} `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sb.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Invocations) != 1 {
		t.Fatalf("sarif has no invocation for the notes:\n%s", sb.String())
	}
	inv := log.Runs[0].Invocations[0]
	if !inv.ExecutionSuccessful || len(inv.Notifications) != 2 {
		t.Fatalf("invocation = %+v, want executionSuccessful and 2 notifications", inv)
	}
	for i, n := range inv.Notifications {
		if n.Level != "note" || n.Message.Text != notes[i] {
			t.Errorf("notification %d = %+v, want level note, text %q", i, n, notes[i])
		}
	}

	// Without notes: no notes field, no invocation.
	jb.Reset()
	sb.Reset()
	if err := (JSON{}).Write(&jb, &Report{Root: "/repo"}); err != nil {
		t.Fatal(err)
	}
	if err := (SARIF{}).Write(&sb, &Report{Root: "/repo"}); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(jb.Bytes(), []byte(`"notes"`)) || bytes.Contains(sb.Bytes(), []byte("invocations")) {
		t.Errorf("a report without notes carries them:\n%s\n%s", jb.String(), sb.String())
	}
}

// TestNotesInMarkdown: the summary lists the notes, escaped, at most
// maxNotes of them with a count of the rest; none, no section.
func TestNotesInMarkdown(t *testing.T) {
	var notes []string
	for i := range maxNotes + 3 {
		notes = append(notes, fmt.Sprintf("note %d <script>", i))
	}
	for _, r := range []*Report{{Root: "/repo", Notes: notes}, {Root: "/repo", Notes: notes, Findings: []checks.Finding{{Rule: "IL2001", Severity: checks.Error, Message: "m", Pos: checks.Position{File: "/repo/a.go", Line: 3}}}}} {
		var b bytes.Buffer
		if err := (Markdown{}).Write(&b, r); err != nil {
			t.Fatal(err)
		}
		md := b.String()
		for _, want := range []string{fmt.Sprintf("Notes (%d)", len(notes)), "- note 0 &lt;script&gt;", fmt.Sprintf("- note %d ", maxNotes-1), "- and 3 more, in the JSON report and SARIF"} {
			if !strings.Contains(md, want) {
				t.Errorf("markdown lacks %q:\n%s", want, md)
			}
		}
		if strings.Contains(md, "<script>") || strings.Contains(md, fmt.Sprintf("- note %d ", maxNotes)) {
			t.Errorf("markdown has an unescaped note or more than %d notes:\n%s", maxNotes, md)
		}
	}
	var b bytes.Buffer
	if err := (Markdown{}).Write(&b, &Report{Root: "/repo"}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "Notes") {
		t.Errorf("a report without notes has a notes section:\n%s", b.String())
	}
}
