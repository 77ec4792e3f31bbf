// Package cienv reads and writes the GitHub Actions environment of a step,
// as reviewdog's cienv does: the event that started the workflow, the
// action's INPUT_* variables, the step's outputs ($GITHUB_OUTPUT) and its
// job summary ($GITHUB_STEP_SUMMARY), within GitHub's size limit.
//
// It lives under report/github because interleave post (report/github)
// writes the step summary too, and report/ imports nothing of internal/.
package cienv

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

// MaxStepSummary is the most a step may write to $GITHUB_STEP_SUMMARY.
// GitHub: "Job summaries are isolated between steps and each step is
// restricted to a maximum size of 1MiB. [...] If more than 1MiB of content
// is added for a step, then the upload for the step will fail and an error
// annotation will be created."
// https://docs.github.com/actions/reference/workflows-and-actions/workflow-commands#step-isolation-and-limits
const MaxStepSummary = 1 << 20

// Event is the part of a workflow's event payload ($GITHUB_EVENT_PATH)
// interleave reads; Name is $GITHUB_EVENT_NAME and Path the payload's file.
type Event struct {
	Name, Path  string
	PullRequest *struct {
		Number int `json:"number"`
		Base   struct {
			SHA string `json:"sha"`
			Ref string `json:"ref"`
		} `json:"base"`
		Head struct {
			SHA string `json:"sha"`
		} `json:"head"`
	} `json:"pull_request"`
	Issue *struct {
		Number      int              `json:"number"`
		PullRequest *json.RawMessage `json:"pull_request"`
	} `json:"issue"`
	Comment *struct {
		ID int64 `json:"id"`
	} `json:"comment"`
	Repository *struct {
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	WorkflowRun *struct {
		HeadSHA      string `json:"head_sha"`
		Event        string `json:"event"`
		PullRequests []struct {
			Number int `json:"number"`
		} `json:"pull_requests"`
	} `json:"workflow_run"`
}

// ReadEvent reads the event payload at $GITHUB_EVENT_PATH; it returns nil
// and no error when the variable is unset (not in a workflow).
func ReadEvent(getenv func(string) string) (*Event, error) {
	path := getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return nil, nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read GitHub event payload: %w", err)
	}
	ev := &Event{Name: getenv("GITHUB_EVENT_NAME"), Path: path}
	if err := json.Unmarshal(b, ev); err != nil {
		return nil, fmt.Errorf("GitHub event payload %s is malformed: %v", path, err)
	}
	return ev, nil
}

// InputEnv is the variable an action's input arrives in: INPUT_ plus the
// name upper-cased, with hyphens and spaces as underscores (INPUT_FAIL_ON).
func InputEnv(name string) string {
	return "INPUT_" + strings.ToUpper(strings.NewReplacer("-", "_", " ", "_").Replace(name))
}

// Input is the input's value, trimmed.
func Input(getenv func(string) string, name string) string {
	return strings.TrimSpace(getenv(InputEnv(name)))
}

// Escape escapes workflow-command data: %, CR and LF.
func Escape(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// WriteOutputs appends the step outputs, name and value pairs, to the
// file at path ($GITHUB_OUTPUT).
func WriteOutputs(path string, kv [][2]string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	for _, p := range kv {
		if err == nil {
			err = WriteOutput(f, p[0], p[1])
		}
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteOutput writes one output: name=value, or the heredoc form with a
// random delimiter when the value spans lines.
func WriteOutput(w io.Writer, name, value string) error {
	if !strings.ContainsAny(value, "\r\n") {
		_, err := fmt.Fprintf(w, "%s=%s\n", name, value)
		return err
	}
	var b [12]byte
	rand.Read(b[:])
	delim := "ghadelimiter_" + hex.EncodeToString(b[:])
	_, err := fmt.Fprintf(w, "%s<<%s\n%s\n%s\n", name, delim, value, delim)
	return err
}

// StepSummaryRoom is how many bytes may still be appended to the step
// summary file at path.
func StepSummaryRoom(path string) int {
	var used int64
	if st, err := os.Stat(path); err == nil {
		used = st.Size()
	}
	return max(0, MaxStepSummary-int(used))
}

// summaryCut ends a summary cut at the limit.
const summaryCut = "\n\n… (summary cut at GitHub's 1 MiB limit; the full report is in the SARIF and JSON files)\n"

// AppendStepSummary appends md to the step summary file at path, cut (at a
// character boundary, with a note) so that the file stays within
// MaxStepSummary. It appends nothing when even the note does not fit.
func AppendStepSummary(path, md string) error {
	room := StepSummaryRoom(path)
	if len(md) > room {
		n := room - len(summaryCut)
		if n < 0 {
			return nil
		}
		for n > 0 && !utf8.RuneStart(md[n]) {
			n-- // do not split a character
		}
		md = md[:n] + summaryCut
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = io.WriteString(f, md)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
