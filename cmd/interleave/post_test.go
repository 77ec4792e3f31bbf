package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/report"
	"github.com/interleave-dev/interleave/report/github/ghtest"
)

const (
	postSHA   = "0123456789abcdef0123456789abcdef01234567"
	postPatch = "@@ -10,3 +10,4 @@ func (c *Counter) Inc() {\n \ta := 1\n+\tc.n++\n \tb := 2\n \tc := 3\n"
)

// postReport writes a JSON report with report.JSON, as interleave pr
// -format json does.
func postReport(t *testing.T, dir string, fs ...checks.Finding) string {
	t.Helper()
	var b bytes.Buffer
	if err := (report.JSON{}).Write(&b, &report.Report{Findings: fs, ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "report.json")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func postFinding() checks.Finding {
	return checks.Finding{Rule: "IL1001", Severity: checks.Warning, Message: "field c.n written without holding c.mu",
		Pos: checks.Position{File: "pkg/counter.go", Line: 11}, Evidence: checks.Static, Package: "example.com/pkg", Func: "Inc", Snippet: "c.n++"}
}

// postEnv runs interleave post against a fake GitHub with the given
// environment and returns the exit code, stdout and stderr.
func postRun(t *testing.T, dir string, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	env := &cliEnv{stdout: &stdout, stderr: &stderr, dir: dir}
	opts, code, ok := parsePostFlags(env, args, func(k string) string { return vars[k] })
	if !ok {
		return code, stdout.String(), stderr.String()
	}
	opts.clock = ghtest.NewClock()
	code = runPost(context.Background(), env, opts)
	return code, stdout.String(), stderr.String()
}

func postServer(t *testing.T, writable bool) *ghtest.Server {
	s := ghtest.New(t)
	s.AddToken("ghs_post", writable)
	s.AddPull(ghtest.Pull{Owner: "octo", Repo: "demo", Number: 3, HeadSHA: postSHA, BaseSHA: strings.Repeat("b", 40),
		Files: []ghtest.File{{Filename: "pkg/counter.go", Patch: postPatch}}})
	return s
}

func TestPostEndToEnd(t *testing.T) {
	s := postServer(t, true)
	dir := t.TempDir()
	rep := postReport(t, dir, postFinding())
	summary := writeTemp(t, "summary.md", "## interleave\n\none finding\n")
	event := writeTemp(t, "event.json", `{"action":"synchronize","pull_request":{"number":3,"head":{"sha":"`+postSHA+`"},"base":{"sha":"`+strings.Repeat("b", 40)+`"}}}`)
	step := filepath.Join(dir, "step.md")
	vars := map[string]string{
		"GITHUB_TOKEN": "ghs_post", "GITHUB_API_URL": s.URL(), "GITHUB_REPOSITORY": "octo/demo",
		"GITHUB_EVENT_PATH": event, "GITHUB_EVENT_NAME": "pull_request", "GITHUB_STEP_SUMMARY": step,
	}
	code, stdout, stderr := postRun(t, dir, vars, "-report", rep, "-summary", summary)
	if code != exitOK {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing when posting works", stdout)
	}
	runs := s.CheckRuns("octo", "demo")
	if len(runs) != 1 || runs[0].GetHeadSHA() != postSHA || runs[0].GetConclusion() != "failure" {
		t.Fatalf("check runs %d, want one failing on %s", len(runs), postSHA)
	}
	cs := s.ReviewComments("octo", "demo", 3)
	if len(cs) != 1 || cs[0].GetLine() != 11 || cs[0].GetPath() != "pkg/counter.go" {
		t.Fatalf("review comments %d, want one on pkg/counter.go:11", len(cs))
	}
	if ics := s.IssueComments("octo", "demo", 3); len(ics) != 1 || !strings.Contains(ics[0].GetBody(), "one finding") {
		t.Errorf("summary comment missing")
	}
	if b, _ := os.ReadFile(step); !strings.Contains(string(b), "one finding") {
		t.Errorf("job summary %q lacks the summary", b)
	}
	for _, want := range []string{"check run", "review", "summary comment", "job summary written"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}

	// The same report again: nothing new is posted.
	code, _, stderr = postRun(t, dir, vars, "-report", rep, "-summary", summary, "-check=false")
	if code != exitOK || !strings.Contains(stderr, "1 already posted") {
		t.Errorf("second run: exit %d, stderr:\n%s", code, stderr)
	}
	if n := len(s.ReviewComments("octo", "demo", 3)); n != 1 {
		t.Errorf("%d comments after the second run, want 1", n)
	}
}

func TestPostReadOnlyToken(t *testing.T) {
	s := postServer(t, false)
	dir := t.TempDir()
	rep := postReport(t, dir, postFinding())
	vars := map[string]string{"GITHUB_TOKEN": "ghs_post", "GITHUB_API_URL": s.URL()}
	code, stdout, stderr := postRun(t, dir, vars, "-report", rep, "-repo", "octo/demo", "-pr", "3", "-sha", postSHA)
	if code != exitOK {
		t.Fatalf("exit %d, want 0 with a read-only token; stderr:\n%s", code, stderr)
	}
	if !strings.HasPrefix(stdout, "::warning file=pkg/counter.go,line=11,title=IL1001") || !strings.Contains(stdout, "::field c.n written without holding c.mu\n") {
		t.Errorf("stdout lacks the workflow command:\n%s", stdout)
	}
	if !strings.Contains(stderr, "403") {
		t.Errorf("stderr does not say why:\n%s", stderr)
	}
}

func TestPostWorkflowRun(t *testing.T) {
	s := postServer(t, true)
	dir := t.TempDir()
	rep := postReport(t, dir, postFinding())
	event := func(sha string) string {
		return writeTemp(t, "wr.json", `{"action":"completed","workflow_run":{"head_sha":"`+sha+`","event":"pull_request","pull_requests":[]}}`)
	}
	vars := map[string]string{"GITHUB_TOKEN": "ghs_post", "GITHUB_API_URL": s.URL(), "GITHUB_REPOSITORY": "octo/demo", "GITHUB_EVENT_NAME": "workflow_run"}

	vars["GITHUB_EVENT_PATH"] = event(strings.Repeat("c", 40))
	code, _, stderr := postRun(t, dir, vars, "-report", rep, "-pr", "3")
	if code != exitError || !strings.Contains(stderr, "refusing to post") {
		t.Errorf("stale head: exit %d, want 2 refusing; stderr:\n%s", code, stderr)
	}
	if len(s.CheckRuns("octo", "demo")) != 0 {
		t.Errorf("posted although the head moved")
	}

	vars["GITHUB_EVENT_PATH"] = event(postSHA)
	if code, _, stderr := postRun(t, dir, vars, "-report", rep); code != exitError || !strings.Contains(stderr, "-pr") {
		t.Errorf("no -pr: exit %d, stderr:\n%s", code, stderr)
	}
	if code, _, stderr := postRun(t, dir, vars, "-report", rep, "-pr", "3", "-sha", strings.Repeat("d", 40)); code != exitError || !strings.Contains(stderr, "is not the head") {
		t.Errorf("-sha differing from the run: exit %d, stderr:\n%s", code, stderr)
	}
	if code, _, stderr := postRun(t, dir, vars, "-report", rep, "-pr", "3"); code != exitOK {
		t.Errorf("matching head: exit %d, stderr:\n%s", code, stderr)
	}
	if len(s.CheckRuns("octo", "demo")) != 1 {
		t.Errorf("not posted with a matching head")
	}
}

func TestPostBadInput(t *testing.T) {
	dir := t.TempDir()
	good := postReport(t, dir, postFinding())
	traversal := postFinding()
	traversal.Pos.File = "../../etc/passwd"
	badDir := t.TempDir()
	escaping := postReport(t, badDir, traversal)
	absSchedule := postFinding()
	absSchedule.Schedule = "/home/runner/.ssh/id_rsa"
	absDir := t.TempDir()
	absolute := postReport(t, absDir, absSchedule)
	notJSON := writeTemp(t, "bad.json", `{"version": 1, "findings": [`)
	future := writeTemp(t, "future.json", `{"version": 99, "findings": []}`)
	base := map[string]string{"GITHUB_REPOSITORY": "octo/demo"}
	tests := []struct {
		name    string
		vars    map[string]string
		args    []string
		wantErr string
	}{
		{"missing file", base, []string{"-report", filepath.Join(dir, "nope.json"), "-pr", "1", "-sha", postSHA}, "no such file"},
		{"bad JSON", base, []string{"-report", notJSON, "-pr", "1", "-sha", postSHA}, "not interleave's JSON"},
		{"future version", base, []string{"-report", future, "-pr", "1", "-sha", postSHA}, "version 99"},
		{"path traversal", base, []string{"-report", escaping, "-pr", "1", "-sha", postSHA}, "leaves the repository"},
		{"absolute schedule", base, []string{"-report", absolute, "-pr", "1", "-sha", postSHA}, "is absolute"},
		{"no repo", map[string]string{}, []string{"-report", good, "-pr", "1", "-sha", postSHA}, "no repository"},
		{"bad repo", base, []string{"-report", good, "-repo", "octo", "-pr", "1", "-sha", postSHA}, "not OWNER/NAME"},
		{"no report flag", base, []string{"-pr", "1", "-sha", postSHA}, "-report is required"},
		{"no pr", base, []string{"-report", good, "-sha", postSHA}, "no pull request"},
		{"bad sha", base, []string{"-report", good, "-pr", "1", "-sha", "HEAD"}, "not a commit hash"},
		{"bad fail-on", base, []string{"-report", good, "-pr", "1", "-sha", postSHA, "-fail-on", "fatal"}, "valid values are"},
		{"upload without file", base, []string{"-report", good, "-pr", "1", "-sha", postSHA, "-upload-sarif"}, "needs -sarif"},
		{"bad external id", base, []string{"-report", good, "-pr", "1", "-sha", postSHA, "-external-id", "a b"}, "-external-id: external id \"a b\" must be"},
		{"external id without check run", base, []string{"-report", good, "-pr", "1", "-sha", postSHA, "-external-id", "j1", "-check=false"}, "needs the check run"},
		{"comment without sha", map[string]string{"GITHUB_REPOSITORY": "octo/demo", "GITHUB_EVENT_NAME": "issue_comment",
			"GITHUB_EVENT_PATH": writeTemp(t, "ic.json", `{"issue":{"number":3,"pull_request":{"url":"x"}},"comment":{"id":1}}`)},
			[]string{"-report", good}, "pass -sha"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := postRun(t, dir, tc.vars, tc.args...)
			if code != exitError {
				t.Errorf("exit %d, want %d", code, exitError)
			}
			if !strings.Contains(stderr, tc.wantErr) {
				t.Errorf("stderr lacks %q:\n%s", tc.wantErr, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

func TestPostHelp(t *testing.T) {
	var stderr bytes.Buffer
	code := runMain(context.Background(), &cliEnv{stdout: &bytes.Buffer{}, stderr: &stderr, dir: t.TempDir()}, []string{"post", "-h"})
	if code != exitOK || !strings.Contains(stderr.String(), "Usage: interleave post -report FILE.json") || !strings.Contains(stderr.String(), "-upload-sarif") {
		t.Errorf("exit %d, help:\n%s", code, stderr.String())
	}
}

func TestPostExternalIDPostsOnce(t *testing.T) {
	s := postServer(t, true)
	dir := t.TempDir()
	rep := postReport(t, dir, postFinding())
	vars := map[string]string{"GITHUB_TOKEN": "ghs_post", "GITHUB_API_URL": s.URL(), "GITHUB_REPOSITORY": "octo/demo"}
	args := []string{"-report", rep, "-pr", "3", "-sha", postSHA, "-external-id", "job-7"}
	if code, _, stderr := postRun(t, dir, vars, args...); code != exitOK {
		t.Fatalf("first post: exit %d:\n%s", code, stderr)
	}
	runs := s.CheckRuns("octo", "demo")
	if len(runs) != 1 || runs[0].GetExternalID() != "job-7" || runs[0].GetStatus() != "completed" {
		t.Fatalf("check runs %v, want one completed with external id job-7", runs)
	}
	before := len(s.Requests())
	code, stdout, stderr := postRun(t, dir, vars, args...)
	if code != exitOK || stdout != "" || !strings.Contains(stderr, "already posted: check run "+strconv.FormatInt(runs[0].GetID(), 10)+" with external id job-7 is completed (failure)") {
		t.Errorf("second post: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	for _, r := range s.Requests()[before:] {
		if r.Method != "GET" {
			t.Errorf("second post sent %s %s", r.Method, r.Path)
		}
	}
	if len(s.CheckRuns("octo", "demo")) != 1 || len(s.Reviews("octo", "demo", 3)) != 1 || len(s.IssueComments("octo", "demo", 3)) != 1 {
		t.Errorf("after two posts: %d check runs, %d reviews, %d comments; want 1 each",
			len(s.CheckRuns("octo", "demo")), len(s.Reviews("octo", "demo", 3)), len(s.IssueComments("octo", "demo", 3)))
	}
}
