package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/interleave-dev/interleave/checks"
	"github.com/interleave-dev/interleave/checks/dynamic/explore"
	"github.com/interleave-dev/interleave/internal/prjob"
	"github.com/interleave-dev/interleave/report"
)

// parseGitHubOutput reads a $GITHUB_OUTPUT file the way the runner does.
func parseGitHubOutput(t *testing.T, s string) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok {
			var val []string
			for sc.Scan() && sc.Text() != delim {
				val = append(val, sc.Text())
			}
			out[name] = strings.Join(val, "\n")
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			t.Fatalf("bad output line %q", line)
		}
		out[name] = val
	}
	return out
}

// actionSandbox is a workspace with GITHUB_OUTPUT and GITHUB_STEP_SUMMARY
// files; the process's working directory is restored afterwards.
type actionSandbox struct {
	workspace, output, stepSummary string
}

func newActionSandbox(t *testing.T, workspace string) *actionSandbox {
	t.Helper()
	t.Chdir(workspace)
	tmp := t.TempDir()
	s := &actionSandbox{workspace: workspace, output: filepath.Join(tmp, "output"), stepSummary: filepath.Join(tmp, "summary")}
	t.Setenv("GITHUB_WORKSPACE", workspace)
	t.Setenv("GITHUB_OUTPUT", s.output)
	t.Setenv("GITHUB_STEP_SUMMARY", s.stepSummary)
	for _, k := range []string{"GITHUB_EVENT_PATH", "GITHUB_EVENT_NAME", "GITHUB_TOKEN", "GH_TOKEN"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	for _, e := range os.Environ() {
		if k, _, _ := strings.Cut(e, "="); strings.HasPrefix(k, "INPUT_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	return s
}

// filePatch is git diff's output for one file as GitHub's pull request
// files carry it: from the first hunk on.
func filePatch(diff string) string {
	if i := strings.Index(diff, "@@"); i >= 0 {
		return diff[i:] + "\n"
	}
	return ""
}

func (s *actionSandbox) outputs(t *testing.T) map[string]string {
	t.Helper()
	b, err := os.ReadFile(s.output)
	if err != nil {
		t.Fatal(err)
	}
	return parseGitHubOutput(t, string(b))
}

// flagValue returns the value after name in args.
func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

func writeJSONReport(t *testing.T, name string, fs []checks.Finding) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := (report.JSON{}).Write(f, &report.Report{Findings: fs, ToolVersion: "test"}); err != nil {
		t.Fatal(err)
	}
}

var testFindings = []checks.Finding{
	{Rule: "IL1001", Severity: checks.Error, Message: "a.n read without a.mu", Pos: checks.Position{File: "mod/a/a.go", Line: 9}, Evidence: checks.Static, Package: "example.com/m/a", Func: "A.Get", Snippet: "return a.n"},
	{Rule: "IL2001", Severity: checks.Warning, Message: "write under RLock", Pos: checks.Position{File: "mod/b/b.go", Line: 5}, Evidence: checks.Static, Package: "example.com/m/b", Func: "B.Set", Snippet: "b.n++"},
}

// The token is out of the environment (and of every child process's) while
// pr runs, and in GITHUB_TOKEN only while post runs. What pr prints is
// fenced by stop-commands markers.
func TestActionTokenOnlyForPost(t *testing.T) {
	ws := t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, "mod"), 0o755); err != nil {
		t.Fatal(err)
	}
	sb := newActionSandbox(t, ws)
	const secret = "ghs_s3cretTokenValue"
	t.Setenv("INPUT_GITHUB_TOKEN", secret)
	t.Setenv("GITHUB_TOKEN", secret)
	t.Setenv("GH_TOKEN", secret)
	t.Setenv("ACTIONS_RUNTIME_TOKEN", "runtime-"+secret)
	t.Setenv("INPUT_WORKING_DIRECTORY", "mod")
	t.Setenv("INPUT_BUDGET", "2m")

	var prArgs, postArgs []string
	prRan, postRan := false, false
	fakeJob := func(ctx context.Context, env *cliEnv, cfg prjob.Config) (int, int) {
		prRan, prArgs = true, cfg.Args()
		args := prArgs
		for _, k := range actionSecretEnv {
			if v, ok := os.LookupEnv(k); ok {
				t.Errorf("%s=%q is visible to pr", k, v)
			}
		}
		for _, e := range os.Environ() {
			if strings.Contains(e, secret) {
				t.Errorf("the token is visible to pr in %q", e)
			}
		}
		out, err := exec.Command("env").Output()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), secret) {
			t.Error("the token is visible to processes pr starts")
		}
		if env.dir != filepath.Join(ws, "mod") {
			t.Errorf("pr runs in %s, want the working directory", env.dir)
		}
		fmt.Fprintln(env.stderr, "::add-mask::printed by a test under review")
		writeJSONReport(t, flagValue(args, "-o"), testFindings)
		os.WriteFile(flagValue(args, "-sarif"), []byte("{}"), 0o644)
		os.WriteFile(flagValue(args, "-summary"), []byte("## interleave\n"), 0o644)
		return len(testFindings), exitFindings
	}
	fakePost := &command{name: "post", run: func(ctx context.Context, env *cliEnv, args []string) int {
		postRan, postArgs = true, args
		if got := os.Getenv("GITHUB_TOKEN"); got != secret {
			t.Errorf("post sees GITHUB_TOKEN=%q, want the input token", got)
		}
		return exitOK
	}}
	a := &actionRunner{job: fakeJob, command: func(name string) *command {
		return map[string]*command{"post": fakePost}[name]
	}}
	env, _, stderr := testEnv(t, ws)
	code := a.run(context.Background(), env)
	if code != exitFindings || !prRan || !postRan {
		t.Fatalf("exit %d (pr ran %v, post ran %v), want 1; stderr:\n%s", code, prRan, postRan, stderr)
	}
	if _, ok := os.LookupEnv("GITHUB_TOKEN"); ok {
		t.Error("GITHUB_TOKEN is still set after post")
	}

	wantPR := []string{"-format", "json", "-o", filepath.Join(ws, "mod", actionReportFile),
		"-sarif", filepath.Join(ws, "mod", "interleave.sarif"), "-summary", filepath.Join(ws, "mod", actionSummaryFile)}
	if strings.Join(prArgs, " ") != strings.Join(wantPR, " ") {
		t.Errorf("pr args:\n got %q\nwant %q", prArgs, wantPR)
	}
	if flagValue(postArgs, "-report") != filepath.Join(ws, "mod", actionReportFile) || flagValue(postArgs, "-fail-on") != prjob.DefaultFailOn ||
		flagValue(postArgs, "-sarif") != filepath.Join(ws, "mod", "interleave.sarif") {
		t.Errorf("post args: %q", postArgs)
	}

	m := regexp.MustCompile(`(?s)::stop-commands::([0-9a-f]{32})\n(.*)::([0-9a-f]{32})::\n`).FindStringSubmatch(stderr.String())
	if m == nil || m[1] != m[3] || !strings.Contains(m[2], "::add-mask::printed by a test under review") {
		t.Errorf("pr's output is not fenced by stop-commands markers:\n%s", stderr)
	}

	got := sb.outputs(t)
	want := map[string]string{"findings": "2", "sarif-file": "mod/interleave.sarif", "summary-file": "mod/interleave-summary.md", "report-file": "mod/interleave-report.json"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("output %s = %q, want %q", k, got[k], v)
		}
	}
}

func TestActionShardDoesNotPost(t *testing.T) {
	ws := t.TempDir()
	sb := newActionSandbox(t, ws)
	t.Setenv("INPUT_SHARD", "2/4")
	t.Setenv("INPUT_PACKAGES", "./a/...")
	if err := os.WriteFile(filepath.Join(ws, ".git"), []byte("gitdir: elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var prArgs []string
	fakeJob := func(ctx context.Context, env *cliEnv, cfg prjob.Config) (int, int) {
		prArgs = cfg.Args()
		fs := []checks.Finding{testFindings[0], testFindings[1]}
		fs[0].Pos.File, fs[1].Pos.File = "a/x/a.go", "b/b.go"
		// The job keeps the findings in its packages (prjob.FilterPackages).
		fs, _ = prjob.FilterPackages(fs, env.dir, ws, cfg.Packages)
		writeJSONReport(t, cfg.Output, fs)
		return len(fs), exitOK
	}
	a := &actionRunner{job: fakeJob, command: func(name string) *command {
		if name == "post" {
			t.Error("a shard must not post")
		}
		return nil
	}}
	env, _, stderr := testEnv(t, ws)
	if code := a.run(context.Background(), env); code != exitOK {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	if flagValue(prArgs, "-shard") != "2/4" || flagValue(prArgs, "-packages") != "./a/..." || flagValue(prArgs, "-sarif") != "" || flagValue(prArgs, "-summary") != "" {
		t.Errorf("pr args %q: want -shard 2/4, -packages ./a/... and neither -sarif nor -summary", prArgs)
	}
	got := sb.outputs(t)
	if got["report-file"] != "interleave-shard-2-of-4.json" || got["findings"] != "1" || got["sarif-file"] != "" {
		t.Errorf("outputs %q; want the shard report with the one finding under ./a/...", got)
	}
}

func TestActionBadInput(t *testing.T) {
	ws := t.TempDir()
	newActionSandbox(t, ws)
	t.Setenv("INPUT_SCOPE", "diff")
	t.Setenv("INPUT_STRATEGIES", "nope")
	t.Setenv("INPUT_GITHUB_TOKEN", "tok")
	env, _, stderr := testEnv(t, ws)
	if code := runMain(context.Background(), env, []string{"action"}); code != exitError {
		t.Errorf("exit %d, want 2", code)
	}
	for _, want := range []string{
		`::error title=interleave: bad input::input scope: "diff" is not valid: use one of changed, package, all`,
		`::error title=interleave: bad input::input strategies: unknown strategy "nope": valid strategies are ` + strings.Join(explore.Strategies, ", "),
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if _, ok := os.LookupEnv("INPUT_GITHUB_TOKEN"); ok {
		t.Error("the token input is still in the environment after a bad input")
	}
	t.Setenv("INPUT_SCOPE", "")
	t.Setenv("INPUT_STRATEGIES", "")
	t.Setenv("INPUT_WORKING_DIRECTORY", "nope")
	stderr.Reset()
	if code := runMain(context.Background(), env, []string{"action"}); code != exitError || !strings.Contains(stderr.String(), `input working-directory: "nope" is not a directory`) {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
}

// report mode merges earlier reports (here two shards) and hands the result
// to the real post command, which without a token degrades to annotations.
func TestActionReportMode(t *testing.T) {
	if commands["post"] == nil {
		t.Skip("interleave post is not in this build yet (cmd/interleave/post.go)")
	}
	ws := t.TempDir()
	sb := newActionSandbox(t, ws)
	if err := os.MkdirAll(filepath.Join(ws, "art"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSONReport(t, filepath.Join(ws, "art", "shard-1.json"), testFindings[:1])
	writeJSONReport(t, filepath.Join(ws, "art", "shard-2.json"), testFindings)
	event := filepath.Join(ws, "event.json")
	head := strings.Repeat("c", 40)
	os.WriteFile(event, []byte(fmt.Sprintf(`{"action":"opened","number":7,"pull_request":{"number":7,"head":{"sha":%q},"base":{"sha":%q}},"repository":{"full_name":"o/r","default_branch":"main"}}`, head, strings.Repeat("d", 40))), 0o644)
	t.Setenv("GITHUB_EVENT_PATH", event)
	t.Setenv("GITHUB_EVENT_NAME", "pull_request")
	t.Setenv("GITHUB_REPOSITORY", "o/r")
	t.Setenv("GITHUB_SHA", head)
	t.Setenv("INPUT_REPORT", "art/*.json")
	t.Setenv("INPUT_PR_NUMBER", "7")

	env, stdout, stderr := testEnv(t, ws)
	code := runMain(context.Background(), env, []string{"action"})
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	if code != exitFindings {
		t.Fatalf("exit %d, want 1 (an error finding); stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	out := sb.outputs(t)
	if out["findings"] != "2" || out["report-file"] != "interleave-report.json" || out["sarif-file"] != "interleave.sarif" {
		t.Errorf("outputs %q", out)
	}
	if !strings.Contains(stdout.String(), "::error file=mod/a/a.go,line=9,") {
		t.Errorf("post printed no annotation for the finding:\n%s", stdout)
	}
	if md, err := os.ReadFile(sb.stepSummary); err != nil || !strings.Contains(string(md), "IL1001") {
		t.Errorf("job summary (%v): %q", err, md)
	}
}

// When pr cannot run, nothing is posted, the reason reaches the job summary
// and the step exits 2 without a findings output.
func TestActionPRCouldNotRun(t *testing.T) {
	ws := t.TempDir()
	sb := newActionSandbox(t, ws)
	// A report left by an earlier run must not be posted.
	writeJSONReport(t, filepath.Join(ws, actionReportFile), testFindings)
	fakeJob := func(ctx context.Context, env *cliEnv, cfg prjob.Config) (int, int) {
		os.WriteFile(cfg.Summary, []byte("## interleave could not run\n\nthe head does not compile\n"), 0o644)
		return -1, exitError
	}
	a := &actionRunner{job: fakeJob, command: func(name string) *command {
		if name == "post" {
			t.Error("post ran although pr could not")
		}
		return nil
	}}
	env, _, stderr := testEnv(t, ws)
	if code := a.run(context.Background(), env); code != exitError {
		t.Fatalf("exit %d, want 2; stderr:\n%s", code, stderr)
	}
	md, err := os.ReadFile(sb.stepSummary)
	if err != nil || !strings.Contains(string(md), "the head does not compile") {
		t.Errorf("job summary (%v): %q", err, md)
	}
	out := sb.outputs(t)
	if _, ok := out["findings"]; ok || out["summary-file"] != actionSummaryFile || out["report-file"] != "" {
		t.Errorf("outputs %q", out)
	}
}
