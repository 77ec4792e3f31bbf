package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/report"
)

// TestToolRaceNoteEveryFormat: a race of interleave's own runtime (the
// test build's -tags interleave_selfrace, explore/searchtest's TestToolRaceIsNote) is
// no finding in any output format, and each says it as a note: text on
// standard error, JSON in notes, SARIF as an execution notification.
func TestToolRaceNoteEveryFormat(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds a race-instrumented test binary; skipped with -short")
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "checks", "dynamic", "testdata", "toolrace"))
	if err != nil {
		t.Fatal(err)
	}
	const note = "TestCancelParent: not reported: a data race of interleave's own runtime"
	for _, format := range []string{"text", "json", "sarif"} {
		var stdout, stderr bytes.Buffer
		env := &cliEnv{stdout: &stdout, stderr: &stderr, dir: dir}
		code := runMain(context.Background(), env, []string{"test", "-budget", "3m", "-count", "20", "-seed", "1",
			"-tags", "interleave_selfrace", "-run", "^TestCancelParent$", "-format", format, "-schedules", t.TempDir(), "."})
		out := stdout.String()
		if code != exitOK {
			t.Errorf("%s: code %d, want %d (no finding); stdout:\n%s\nstderr:\n%s", format, code, exitOK, out, stderr.String())
			continue
		}
		if !strings.Contains(stderr.String(), "interleave test: note: "+note) {
			t.Errorf("%s: no note on standard error:\n%s", format, stderr.String())
		}
		switch format {
		case "text":
			if strings.Contains(out, "data race") || strings.Contains(out, "timerOf") {
				t.Errorf("text: the tool's race told as a finding:\n%s", out)
			}
		case "json":
			var rep report.JSONReport
			if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
				t.Fatalf("json: %v\n%s", err, out)
			}
			if len(rep.Findings) != 0 {
				t.Errorf("json: %d findings, want 0: %+v", len(rep.Findings), rep.Findings)
			}
			found := false
			for _, n := range rep.Notes {
				found = found || strings.HasPrefix(n, note)
			}
			if !found {
				t.Errorf("json: no note %q in %q", note, rep.Notes)
			}
		case "sarif":
			var log struct {
				Runs []struct {
					Results     []json.RawMessage `json:"results"`
					Invocations []struct {
						Notifications []struct {
							Level   string `json:"level"`
							Message struct {
								Text string `json:"text"`
							} `json:"message"`
						} `json:"toolExecutionNotifications"`
					} `json:"invocations"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &log); err != nil || len(log.Runs) != 1 {
				t.Fatalf("sarif: %v (%d runs)\n%s", err, len(log.Runs), out)
			}
			if n := len(log.Runs[0].Results); n != 0 {
				t.Errorf("sarif: %d results, want 0", n)
			}
			found := false
			for _, inv := range log.Runs[0].Invocations {
				for _, n := range inv.Notifications {
					found = found || strings.HasPrefix(n.Message.Text, note) && n.Level == "note"
				}
			}
			if !found {
				t.Errorf("sarif: no notification %q:\n%s", note, out)
			}
		}
	}
}
