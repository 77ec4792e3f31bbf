package cienv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// The step summary file never passes GitHub's limit, counting what earlier
// steps' writers (or this step's) appended before.
func TestAppendStepSummaryLimit(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "step")
	if err := AppendStepSummary(dst, strings.Repeat("x", MaxStepSummary+10)); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(dst)
	if len(b) != MaxStepSummary || !strings.HasSuffix(string(b), "the full report is in the SARIF and JSON files)\n") {
		t.Errorf("got %d bytes ending %q", len(b), b[max(0, len(b)-80):])
	}

	// Already half full: the rest is what may be appended.
	os.WriteFile(dst, []byte(strings.Repeat("y", MaxStepSummary/2)), 0o644)
	if err := AppendStepSummary(dst, strings.Repeat("é", MaxStepSummary/2)); err != nil {
		t.Fatal(err)
	}
	b, _ = os.ReadFile(dst)
	if len(b) > MaxStepSummary || !strings.Contains(string(b), "summary cut") || !strings.HasPrefix(string(b), "yyy") {
		t.Errorf("half-full summary: %d bytes, over %d or without the cut note", len(b), MaxStepSummary)
	}
	if !utf8.Valid(b) {
		t.Error("the cut split a character")
	}

	// Full: nothing more.
	before := len(b)
	if err := AppendStepSummary(dst, "more\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dst); len(b) != before {
		t.Errorf("a full summary grew from %d to %d bytes", before, len(b))
	}

	os.WriteFile(dst, []byte("before\n"), 0o644)
	if err := AppendStepSummary(dst, "small\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dst); string(b) != "before\nsmall\n" {
		t.Errorf("append: got %q", b)
	}
}

func TestInputEnv(t *testing.T) {
	for in, want := range map[string]string{"fail-on": "INPUT_FAIL_ON", "github-token": "INPUT_GITHUB_TOKEN", "a b": "INPUT_A_B"} {
		if got := InputEnv(in); got != want {
			t.Errorf("InputEnv(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadEvent(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if ev, err := ReadEvent(getenv); ev != nil || err != nil {
		t.Errorf("no event path: %v, %v", ev, err)
	}
	path := filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(path, []byte(`{"pull_request":{"number":3,"head":{"sha":"abc"}}}`), 0o644)
	env["GITHUB_EVENT_PATH"], env["GITHUB_EVENT_NAME"] = path, "pull_request"
	ev, err := ReadEvent(getenv)
	if err != nil || ev.Name != "pull_request" || ev.PullRequest == nil || ev.PullRequest.Number != 3 || ev.PullRequest.Head.SHA != "abc" {
		t.Errorf("event %+v, %v", ev, err)
	}
	os.WriteFile(path, []byte(`{`), 0o644)
	if _, err := ReadEvent(getenv); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Errorf("malformed payload: %v", err)
	}
}
